# A "different shape" twin source for the tests (tests/datasets/check_twins.py):
# an ovn-kubernetes style NB, unlike the OpenStack one of datasets/profiles:
# one switch per node full of pod ports, a few huge port groups (every pod,
# every node port) next to many small network-policy ones, namespace
# address sets, services as load balancers shared through a group, and
# gateway routers with SNATs.  About 20 nodes and 2,000 pods at --scale 1.
profile ovn-k8s-nb-test

table NB_Global 1 fixed
  name str ""
  nb_cfg int 100..900
  options map
    key "mac_prefix" 1 str "{hex:2}:{hex:2}:{hex:2}"
    key "e2e_timestamp" 1 str "{int:1700000000..1800000000}"
    key "max_tunid" 1 str "16711680"

# One switch per node: pods, the management port, the router port.
table Logical_Switch 20
  name str "node{i}.k8s.example"
  ports children 60..140 Logical_Switch_Port
  load_balancer_group opt 1 ref Load_Balancer_Group
  acls children 0:80,1..2:20 ACL
  other_config map
    key "subnet" 1 str "10.244.{int:0..255}.0/24"
    key "exclude_ips" 0.5 str "10.244.{int:0..255}.2"
    key "mcast_snoop" 1 pick 1 "true" 1
  external_ids map
    key "k8s.ovn.org/network" 0.1 str "default"

table Logical_Switch_Port children
  name str "{word:4..12}_{word:4..20}-{hex:5}-{hex:5}{i}"
  addresses set 1 str "{maci} {ip4i}"
  port_security set 1 str "{maci} {ip4i}"
  type pick 3 "" 95 "router" 2 "localport" 3
  options map
    key "requested-chassis" 0.95 str "node{int:1..20}.k8s.example"
    key "iface-id-ver" 0.9 str "{uuid}"
  external_ids map
    key "namespace" 0.97 str "{word:3..14@40}"
    key "pod" 0.97 pick 1 "true" 1
    key "k8s.ovn.org/nad" 0.05 str "default"

# Every pod in one port group, every node port in another: huge sets; the
# network policies make many small ones.
table Port_Group 60
  name str "{word:3..10@30}_{hex:8}_{i}"
  ports set 1:20,2..10:25,11..60:12,1800..2200:3 ref Logical_Switch_Port
  acls children 0:10,1..4:40,5..20:10 ACL
  external_ids map
    key "k8s.ovn.org/owner-type" 1 pick 3 "NetworkPolicy" 80 "Namespace" 15 "ClusterPortGroup" 5
    key "k8s.ovn.org/name" 1 str "{word:4..20@40}"
    key "k8s.ovn.org/owner-controller" 1 str "default-network-controller"

table ACL children
  priority pick 4 1001 70 1010 10 2000 15 1003 5
  direction pick 2 "from-lport" 1 "to-lport" 1
  match str "{match:40..90:70,91..300:30}"
  action pick 3 "allow-related" 70 "drop" 20 "reject" 10
  log bool 0.02
  name opt 0.5 str "NP:{word:4..12}:{word:3..10}"
  external_ids map
    key "k8s.ovn.org/owner-type" 1 pick 2 "NetworkPolicy" 9 "AdminNetworkPolicy" 1
    key "k8s.ovn.org/name" 1 str "{word:4..20@100}"
    key "k8s.ovn.org/id" 1 str "default-network-controller:NetworkPolicy:{word:4..12}:{int:0..9}"

# Namespace address sets: a few big ones.
table Address_Set 80
  name str "a{int:100000000000..999999999999}{i}"
  addresses set 0:10,1..10:60,11..80:25,300..600:5 str "10.244.{int:0..255}.{int:2..254}"
  external_ids map
    key "k8s.ovn.org/owner-type" 1 str "Namespace"
    key "k8s.ovn.org/name" 1 str "{word:3..14@40}"
    key "k8s.ovn.org/ip-family" 1 pick 2 "v4" 9 "v6" 1

# Services.
table Load_Balancer 300
  name str "Service_{word:3..12}/{word:3..20}_{upper:3}_cluster"
  protocol opt 1 pick 2 "tcp" 9 "udp" 1
  vips mapgen 1:80,2:15,3..4:5 str "10.96.{int:0..255}.{int:1..254}:{int:1..65535}" str "10.244.{int:0..255}.{int:2..254}:{int:1..65535}"
  options map
    key "event" 1 pick 1 "false" 1
    key "hairpin_snat_ip" 1 str "169.254.169.5 fd69::5"
    key "neighbor_responder" 1 pick 1 "none" 1
    key "reject" 1 pick 1 "true" 1
    key "skip_snat" 1 pick 1 "false" 1
  external_ids map
    key "k8s.ovn.org/kind" 1 pick 1 "Service" 1
    key "k8s.ovn.org/owner" 1 str "{word:3..12}/{word:3..20}"

table Load_Balancer_Group 3 fixed
  name str "{word:7..14}LBGroup{i}"
  load_balancer set 100..300 ref Load_Balancer

# The cluster router and one gateway router per node.
table Logical_Router 21
  name str "GR_node{i}.k8s.example"
  ports children 1..2 Logical_Router_Port
  nat children 1..4:80,30..120:20 NAT
  static_routes children 1..3 Logical_Router_Static_Route
  load_balancer_group opt 0.95 ref Load_Balancer_Group
  options map
    key "always_learn_from_arp_request" 1 pick 1 "false" 1
    key "chassis" 0.95 str "{uuid}"
    key "lb_force_snat_ip" 0.95 str "router_ip"
    key "snat-ct-zone" 0.95 str "0"
  external_ids map
    key "physical_ip" 0.95 str "172.18.0.{int:2..254}"
    key "physical_ips" 0.95 str "172.18.0.{int:2..254}"

table Logical_Router_Port children
  name str "rtoe-GR_node{i}.k8s.example"
  mac str "{maci}"
  networks set 1 str "172.18.0.{int:2..254}/16"

table NAT children
  type pick 2 "snat" 9 "dnat_and_snat" 1
  external_ip str "172.18.0.{int:2..254}"
  logical_ip str "10.244.{int:0..255}.{int:2..254}"
  options map
    key "stateless" 1 pick 1 "false" 1

table Logical_Router_Static_Route children
  ip_prefix str "10.244.{int:0..255}.0/24"
  nexthop str "100.64.0.{int:2..254}"
  policy opt 0.3 pick 1 "src-ip" 1
