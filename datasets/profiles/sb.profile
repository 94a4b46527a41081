# OVN Southbound, as ovn-northd writes it for a large OpenStack/ovn-heater
# style deployment: Logical_Flow dominates (match and actions mostly 30-300
# bytes with a tail past 1 KB; external_ids with stage-name and source),
# plus the bindings, datapaths, multicast groups and chassis.
# Format: datasets/README.md.  Calibrated so that --scale 1 gives a snapshot
# of ~615 MB and ~23M atoms.
profile ovn-sb-large

table SB_Global 1 fixed
  nb_cfg int 1000..90000
  options map
    key "mac_prefix" 1 str "{hex:2}:{hex:2}:{hex:2}"
    key "max_tunid" 1 str "16711680"
    key "northd_internal_version" 1 str "23.03.1-20.27.0-70.6"
    key "svc_monitor_mac" 1 str "{mac}"

table Chassis 800
  name str "{key}"
  hostname str "node{i}.cloud.example.org"
  encaps children 1:80,2:20 Encap
  nb_cfg int 1000..90000
  external_ids map
    key "datapath-type" 1 str ""
    key "iface-types" 1 str "afxdp,afxdp-nonpmd,bareudp,erspan,geneve,gre,gtpu,internal,ip6erspan,ip6gre,lisp,patch,stt,system,tap,vxlan"
    key "is-interconn" 1 pick 1 "false" 1
    key "ovn-bridge-mappings" 1 str "physnet1:br-ex"
    key "ovn-chassis-mac-mappings" 1 str ""
    key "ovn-cms-options" 0.2 str "enable-chassis-as-gw"
    key "ovn-enable-lflow-cache" 1 pick 1 "true" 1
    key "ovn-limit-lflow-cache" 1 str ""
    key "ovn-memlimit-lflow-cache-kb" 1 str ""
    key "ovn-monitor-all" 1 pick 1 "true" 1
    key "ovn-trim-limit-lflow-cache" 1 str ""
    key "ovn-trim-timeout-ms" 1 str ""
    key "ovn-trim-wmark-perc-lflow-cache" 1 str ""
    key "port-up-notif" 1 pick 1 "true" 1
  other_config map
    key "datapath-type" 1 str ""
    key "iface-types" 1 str "afxdp,afxdp-nonpmd,bareudp,erspan,geneve,gre,gtpu,internal,ip6erspan,ip6gre,lisp,patch,stt,system,tap,vxlan"
    key "is-interconn" 1 pick 1 "false" 1
    key "ovn-bridge-mappings" 1 str "physnet1:br-ex"
    key "ovn-chassis-mac-mappings" 1 str ""
    key "ovn-enable-lflow-cache" 1 pick 1 "true" 1
    key "ovn-monitor-all" 1 pick 1 "true" 1
    key "port-up-notif" 1 pick 1 "true" 1

table Encap children
  type pick 2 "geneve" 95 "vxlan" 5
  ip str "{ip4i}"
  chassis_name str "{uuid@800}"
  options map
    key "csum" 1 pick 1 "true" 1

table Chassis_Private 800
  name str "{key}"
  chassis ref Chassis row
  nb_cfg int 1000..90000
  nb_cfg_timestamp int 1690000000000..1700000000000

table Datapath_Binding 12000
  tunnel_key seq 1
  external_ids map
    key "logical-switch" 0.9 str "{uuid}"
    key "name" 1 str "neutron-{uuid}"
    key "name2" 0.3 str "{word:4..14}"

# Ports of each datapath, tunnel keys 1..n within it.
table Port_Binding per Datapath_Binding 0..2:30,3..8:55,9..30:15
  logical_port str "{key}"
  type pick 6 "" 75 "patch" 10 "chassisredirect" 2 "localnet" 3 "localport" 8 "virtual" 2
  datapath ref Datapath_Binding owner
  tunnel_key rank 1
  chassis opt 0.8 ref Chassis
  mac set 1 oneof 2 "{mac@row} {ip4@row}" 70 "{mac@row} {ip4@row} {ip6@row}" 30
  port_security set 0:20,1:80 oneof 2 "{mac@row} {ip4@row}" 70 "{mac@row} {ip4@row} {ip6@row}" 30
  up opt 0.9 bool 0.95
  options map
    key "requested-chassis" 0.8 str "node{int:1..800}.cloud.example.org"
    key "mcast_flood_reports" 0.3 pick 1 "true" 1
  external_ids map
    key "neutron:cidrs" 1 str "{ip4@row}/24"
    key "neutron:device_id" 1 str "{uuid@50000}"
    key "neutron:device_owner" 1 pick 4 "compute:nova" 85 "network:dhcp" 5 "network:router_interface" 5 "network:distributed" 5
    key "neutron:network_name" 1 str "neutron-{uuid@12000}"
    key "neutron:project_id" 1 str "{hex:32@400}"
    key "neutron:revision_number" 1 str "{int:1..12}"
    key "neutron:security_group_ids" 1 str "{uuid@4000}"

table Multicast_Group per Datapath_Binding 4
  datapath ref Datapath_Binding owner
  name cycle 4 "_MC_flood" "_MC_mrouter_flood" "_MC_unknown" "_MC_flood_l2"
  tunnel_key rank 32768
  ports set 0:30,1..4:40,5..20:25,21..60:5 ref Port_Binding

table IP_Multicast per Datapath_Binding 0:70,1:30
  datapath ref Datapath_Binding owner
  enabled opt 1 bool 0.5
  querier opt 1 bool 1
  eth_src str "{mac}"
  ip4_src str "{ip4}"
  table_size opt 1 int 2048..2048
  idle_timeout opt 1 int 300..300
  query_interval opt 1 int 150..150
  query_max_resp opt 1 int 1..1

# Datapath groups shared by logical flows and load balancers.
table Logical_DP_Group 3000
  datapaths set 2..10:60,11..100:35,101..400:5 ref Datapath_Binding

table Logical_Flow 780000
  logical_datapath optrow 0 0.78 ref Datapath_Binding
  logical_dp_group optrow 0.78 1 ref Logical_DP_Group cover
  pipeline pick 2 "ingress" 62 "egress" 38
  table_id int 0..9:50,10..27:50
  priority pick 14 0 6 10 5 50 10 80 4 90 4 100 16 110 8 120 6 150 3 1000 10 1100 4 2000 10 32000 4 65535 10
  match oneof 2 "1" 5 "{match:10..29:15,30..50:40,51..100:30,101..300:12.5,301..1000:2.2,1001..2000:0.3@700000}" 95
  actions oneof 2 "next;" 40 "{actions:8..29:35,30..50:35,51..100:20,101..300:8.5,301..1000:1.3,1001..2000:0.2@500000}" 60
  controller_meter opt 0.02 pick 2 "__reject_meter" 1 "arp-meter" 1
  external_ids map
    key "source" 1 str "northd.c:{int:1000..18000@=900}"
    key "stage-hint" 0.45 str "{hex:8}"
    key "stage-name" 1 pick 53 "ls_in_check_port_sec" 1 "ls_in_apply_port_sec" 1 "ls_in_lookup_fdb" 1 "ls_in_put_fdb" 1 "ls_in_pre_acl" 2 "ls_in_pre_lb" 2 "ls_in_pre_stateful" 2 "ls_in_acl_hint" 2 "ls_in_acl" 8 "ls_in_qos_mark" 1 "ls_in_qos_meter" 1 "ls_in_lb" 3 "ls_in_acl_after_lb" 2 "ls_in_stateful" 2 "ls_in_pre_hairpin" 1 "ls_in_nat_hairpin" 1 "ls_in_hairpin" 1 "ls_in_arp_rsp" 4 "ls_in_dhcp_options" 2 "ls_in_dhcp_response" 2 "ls_in_dns_lookup" 1 "ls_in_dns_response" 1 "ls_in_external_port" 1 "ls_in_l2_lkup" 6 "ls_in_l2_unknown" 1 "ls_out_pre_lb" 2 "ls_out_pre_acl" 2 "ls_out_pre_stateful" 1 "ls_out_acl_hint" 2 "ls_out_acl" 8 "ls_out_qos_mark" 1 "ls_out_stateful" 1 "ls_out_check_port_sec" 2 "ls_out_apply_port_sec" 2 "lr_in_admission" 2 "lr_in_lookup_neighbor" 1 "lr_in_learn_neighbor" 1 "lr_in_ip_input" 5 "lr_in_unsnat" 2 "lr_in_defrag" 1 "lr_in_dnat" 3 "lr_in_ecmp_stateful" 1 "lr_in_nd_ra_options" 1 "lr_in_ip_routing" 4 "lr_in_ip_routing_ecmp" 1 "lr_in_policy" 1 "lr_in_arp_resolve" 4 "lr_in_gw_redirect" 1 "lr_in_arp_request" 1 "lr_out_undnat" 1 "lr_out_snat" 2 "lr_out_egr_loop" 1 "lr_out_delivery" 1

table MAC_Binding 150000
  logical_port str "lrp-{uuid@1500}"
  ip str "{ip4i}"
  mac str "{mac}"
  timestamp int 1690000000000..1700000000000
  datapath ref Datapath_Binding

table FDB 20000
  mac str "{maci}"
  dp_key int 1..12000
  port_key int 1..40

table Address_Set 32700
  name str "pg_{hex:8}_{hex:4}_{hex:4}_{hex:4}_{hex:12}_ip4"
  addresses set 0:5,1..10:30,11..100:35,101..1000:25,1001..3000:5 oneof 2 "{ip4@3000000}" 70 "{ip6@3000000}" 30

table Port_Group 15000
  name str "{int:1..12000}_pg_{hex:8}_{hex:4}_{hex:4}_{hex:4}_{hex:12}"
  ports set 1..4:60,5..40:35,41..200:5 str "{uuid@100000}"

table Load_Balancer 4000
  name str "{uuid}"
  protocol opt 0.95 pick 2 "tcp" 8 "udp" 2
  vips mapgen 1:70,2..4:25,5..12:5 str "172.{int:16..31}.{int:0..255}.{int:1..254}:{int:1..65535}" str "10.{int:0..255}.{int:0..255}.{int:2..254}:80,10.{int:0..255}.{int:0..255}.{int:2..254}:80"
  datapath_group opt 0.5 ref Logical_DP_Group
  datapaths set 0:50,1..5:50 ref Datapath_Binding
  external_ids map
    key "lb_id" 1 str "{uuid}"
    key "neutron:vip" 1 str "172.{int:16..31}.{int:0..255}.{int:1..254}"

table Service_Monitor 1000
  ip str "{ip4i}"
  protocol opt 1 pick 2 "tcp" 8 "udp" 2
  port int 1..65535
  logical_port str "{uuid@1000}"
  src_mac str "{mac@=1}"
  src_ip str "{ip4}"
  status opt 0.9 pick 3 "online" 8 "offline" 1 "error" 1
  external_ids map
    key "neutron:lb_id" 1 str "{uuid}"

table DNS 2000
  records mapgen 1..4 str "vm-{word:4..10}" str "10.{int:0..255}.{int:0..255}.{int:2..254}"
  datapaths set 1..3 ref Datapath_Binding
  external_ids map
    key "dns_id" 1 str "{uuid}"

table RBAC_Permission 8 fixed
  table cycle 8 "Chassis" "Chassis_Private" "Encap" "Port_Binding" "MAC_Binding" "Service_Monitor" "IGMP_Group" "Controller_Event"
  authorization set 1 pick 2 "name" 1 "chassis" 1
  insert_delete bool 1
  update set 1..4 pick 6 "nb_cfg" 1 "external_ids" 1 "encaps" 1 "chassis" 1 "up" 1 "status" 1

table RBAC_Role 1 fixed
  name str "ovn-controller"
  permissions mapgen 8 cycle 8 "Chassis" "Chassis_Private" "Encap" "Port_Binding" "MAC_Binding" "Service_Monitor" "IGMP_Group" "Controller_Event" ref RBAC_Permission row

# Log form: what a running northd and the chassis write.
log insert Logical_Flow 30
log delete Logical_Flow 25
log modify Logical_Flow actions 10
log insert MAC_Binding 10
log delete MAC_Binding 5
log modify Port_Binding external_ids 10
log modify Chassis_Private nb_cfg 10
