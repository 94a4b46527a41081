# OVN Northbound, shaped like an OpenStack (Neutron) deployment.
# Format: datasets/README.md.  Row counts are at --scale 1, calibrated so that
# the snapshot is ~350 MB / ~12M atoms with the atom mix of a real OpenStack
# NB database: strings 70%, UUIDs 23%, booleans 5%, integers 2%; strings
# mostly short and repeated (external_ids keys on every row).
profile ovn-nb-openstack

table NB_Global 1 fixed
  name str ""
  nb_cfg int 1000..90000
  sb_cfg int 1000..90000
  hv_cfg int 1000..90000
  options map
    key "mac_prefix" 1 str "{hex:2}:{hex:2}:{hex:2}"
    key "max_tunid" 1 str "16711680"
    key "northd_internal_version" 1 str "23.03.1-20.27.0-70.6"
    key "svc_monitor_mac" 1 str "{mac}"
    key "northd_probe_interval" 1 str "5000"
  external_ids map
    key "neutron:liveness_check_at" 1 str "2023-11-0{int:1..9}T1{int:0..9}:2{int:0..9}:0{int:0..9}.{int:100000..999999}+00:00"

# Networks.  Most switches use no load balancer; some reference many.
table Logical_Switch 13208
  name str "neutron-{key}"
  ports children 1..4:40,5..30:45,31..120:13,121..400:2 Logical_Switch_Port
  load_balancer set 0:70,1..4:10,5..20:10,50..160:10 ref Load_Balancer
  dns_records opt 0.3 ref DNS cover
  other_config map
    key "mcast_snoop" 0.9 pick 2 "true" 1 "false" 3
    key "mcast_flood_unregistered" 0.9 pick 1 "false" 1
    key "vlan-passthru" 0.9 pick 1 "false" 1
    key "broadcast-arps-to-all-routers" 0.5 pick 1 "true" 1
    key "fdb_age_threshold" 0.2 str "{int:0..300}"
  external_ids map
    key "neutron:availability_zone_hints" 1 str ""
    key "neutron:mtu" 1 pick 2 "1442" 9 "1500" 1
    key "neutron:network_name" 1 str "{word:4..14}"
    key "neutron:revision_number" 1 str "{int:1..30}"

table Logical_Switch_Port children
  name str "{key}"
  type pick 4 "" 88 "router" 5 "localport" 5 "virtual" 2
  options map
    key "requested-chassis" 0.9 str "node{int:1..400}"
    key "mcast_flood_reports" 0.25 pick 1 "true" 1
  addresses set 1 oneof 2 "{mac@row} {ip4@row}" 70 "{mac@row} {ip4@row} {ip6@row}" 30
  port_security set 0:20,1:80 oneof 2 "{mac@row} {ip4@row}" 70 "{mac@row} {ip4@row} {ip6@row}" 30
  up opt 0.95 bool 0.9
  enabled opt 0.9 bool 0.95
  dhcpv4_options opt 0.8 ref DHCP_Options
  tag_request opt 0.15 int 0..4095
  external_ids map
    key "neutron:cidrs" 1 str "{ip4@row}/24"
    key "neutron:device_id" 1 str "{uuid@39624}"
    key "neutron:device_owner" 1 pick 4 "compute:nova" 85 "network:dhcp" 5 "network:router_interface" 5 "network:distributed" 5
    key "neutron:network_name" 1 str "neutron-{uuid@6604}"
    key "neutron:port_name" 1 pick 2 "" 9 "port-{word:3..8}" 1
    key "neutron:project_id" 1 str "{hex:32@396}"
    key "neutron:revision_number" 1 str "{int:1..12}"
    key "neutron:security_group_ids" 1 oneof 2 "{uuid@3962}" 80 "{uuid@3962} {uuid@3962}" 20

# Security groups: their ACLs and member ports.
table Port_Group 10566
  name str "pg_{hex:8}_{hex:4}_{hex:4}_{hex:4}_{hex:12}"
  ports set 0:5,1..10:35,11..100:40,101..400:20 ref Logical_Switch_Port
  acls children 2:40,3..8:40,9..30:20 ACL
  external_ids map
    key "neutron:security_group_id" 1 str "{uuid}"

table ACL children
  name opt 0.1 str "neutron-{uuid}"
  priority pick 3 1002 85 1001 10 1003 5
  direction pick 2 "from-lport" 1 "to-lport" 1
  match str "{match:20..70:60,71..160:36,161..600:4@52832}"
  action pick 3 "allow-related" 80 "drop" 10 "allow" 10
  log bool 0.05
  external_ids map
    key "neutron:security_group_rule_id" 1 str "{uuid}"

table Address_Set 21133
  name str "pg_{hex:8}_{hex:4}_{hex:4}_{hex:4}_{hex:12}_ip{int:4..4}"
  addresses set 0:20,1..4:50,5..30:27,31..200:3 oneof 2 "{ip4@132080}" 60 "{ip6@132080}" 40
  external_ids map
    key "neutron:security_group_id" 1 str "{uuid}"

table DHCP_Options 7925
  cidr str "10.{int:0..255}.{int:0..255}.0/24"
  options map
    key "dns_server" 1 str "{{10.{int:0..255}.0.2, 10.{int:0..255}.0.3}}"
    key "lease_time" 1 str "43200"
    key "mtu" 1 str "1442"
    key "router" 1 str "10.{int:0..255}.{int:0..255}.1"
    key "server_id" 1 str "10.{int:0..255}.{int:0..255}.1"
    key "server_mac" 1 str "fa:16:3e:{hex:2}:{hex:2}:{hex:2}"
  external_ids map
    key "neutron:revision_number" 1 str "{int:0..5}"
    key "subnet_id" 1 str "{uuid}"

table DNS 1981
  records mapgen 1..4 str "vm-{word:4..10}" str "10.{int:0..255}.{int:0..255}.{int:2..254}"
  external_ids map
    key "ls_name" 1 str "neutron-{uuid}"

# Routers with their ports, routes and floating IPs.
table Logical_Router 1585
  name str "neutron-{key}"
  ports children 1..3:60,4..12:35,13..40:5 Logical_Router_Port
  static_routes children 0:50,1..4:40,5..20:10 Logical_Router_Static_Route
  nat children 0..2:40,3..20:45,21..120:15 NAT
  load_balancer set 0:80,1..10:12,50..120:8 ref Load_Balancer
  enabled opt 0.95 bool 1
  options map
    key "always_learn_from_arp_request" 1 pick 1 "false" 1
    key "dynamic_neigh_routers" 1 pick 1 "true" 1
  external_ids map
    key "neutron:availability_zone_hints" 1 str ""
    key "neutron:gw_port_id" 0.8 str "{uuid}"
    key "neutron:revision_number" 1 str "{int:1..40}"
    key "neutron:router_name" 1 str "router-{word:3..10}"

table Logical_Router_Port children
  name str "lrp-{key}"
  networks set 1:85,2:15 str "10.{int:0..255}.{int:0..255}.1/24"
  mac str "fa:16:3e:{hex:2}:{hex:2}:{hex:2}"
  gateway_chassis children 0:85,3:15 Gateway_Chassis
  options map
    key "reside-on-redirect-chassis" 0.2 pick 1 "true" 1
  external_ids map
    key "neutron:is_ext_gw" 0.1 pick 1 "True" 1
    key "neutron:network_name" 1 str "neutron-{uuid@6604}"
    key "neutron:revision_number" 1 str "{int:1..20}"
    key "neutron:router_name" 1 str "{uuid@1585}"
    key "neutron:subnet_ids" 1 str "{uuid}"

table Gateway_Chassis children
  name str "lrp-{key}_{uuid@67}"
  chassis_name str "{uuid@67}"
  priority int 1..3

table Logical_Router_Static_Route children
  ip_prefix str "10.{int:0..255}.{int:0..255}.0/24"
  nexthop str "10.{int:0..255}.{int:0..255}.{int:1..254}"
  external_ids map
    key "neutron:is_static_route" 1 pick 1 "true" 1
    key "neutron:subnet_id" 0.5 str "{uuid}"

table NAT children
  external_ip str "172.{int:16..31}.{int:0..255}.{int:1..254}"
  logical_ip str "10.{int:0..255}.{int:0..255}.{int:2..254}"
  type pick 2 "dnat_and_snat" 8 "snat" 2
  logical_port opt 0.7 str "{uuid}"
  external_mac opt 0.6 str "fa:16:3e:{hex:2}:{hex:2}:{hex:2}"
  options map
    key "stateless" 0.5 pick 1 "false" 1
  external_ids map
    key "neutron:fip_external_mac" 0.6 str "fa:16:3e:{hex:2}:{hex:2}:{hex:2}"
    key "neutron:fip_id" 0.8 str "{uuid}"
    key "neutron:fip_port_id" 0.8 str "{uuid}"
    key "neutron:revision_number" 1 str "{int:1..9}"
    key "neutron:router_name" 1 str "neutron-{uuid@1585}"

# Octavia (OVN provider) load balancers, shared by many switches/routers.
table Load_Balancer 3962
  name str "{uuid}"
  protocol opt 0.95 pick 2 "tcp" 8 "udp" 2
  vips mapgen 1:70,2..4:25,5..12:5 str "172.{int:16..31}.{int:0..255}.{int:1..254}:{int:1..65535}" str "10.{int:0..255}.{int:0..255}.{int:2..254}:80,10.{int:0..255}.{int:0..255}.{int:2..254}:80"
  options map
    key "hairpin_snat_ip" 0.1 str "172.{int:16..31}.0.1"
  external_ids map
    key "enabled" 1 pick 1 "True" 1
    key "lr_ref" 1 str "neutron-{uuid@1585}"
    key "ls_refs" 1 str "{{\"neutron-{uuid@6604}\": 1}}"
    key "neutron:member_status" 1 str "{{\"{uuid}\": \"ONLINE\"}}"
    key "neutron:vip" 1 str "172.{int:16..31}.{int:0..255}.{int:1..254}"
    key "neutron:vip_port_id" 1 str "{uuid}"
    key "octavia:healthmonitors" 0.3 str "[]"

table HA_Chassis_Group 26
  name str "{key}"
  ha_chassis children 3 HA_Chassis

table HA_Chassis children
  chassis_name str "{uuid@67}"
  priority int 1..32767

# Log form: what a running Neutron does.
log child-insert Port_Group acls 25
log child-delete Port_Group acls 15
log modify Logical_Switch_Port external_ids 30
log modify ACL priority 10
log insert Address_Set 5
log delete Address_Set 3
log modify Logical_Router external_ids 5
log child-insert Logical_Router nat 5
log child-delete Logical_Router nat 2

# --log-shape sets: a CMS growing a few large groups one small
# transaction at a time (a namespace's pods joining its port group, their
# addresses joining its address set, rules added to its port group), so
# that replaying the log applies many diffs to sets that keep growing.
log-shape sets
log set-add Port_Group ports 40 hot 8
log set-add Address_Set addresses 30 hot 8 str "{ip4i}"
log child-insert Port_Group acls 30 hot 8
