"""Real OVS in the loop: the project's datasets and workloads run on real
ovsdb-server / ovsdb-tool / ovsdb-client builds (the installed package or
any commit of an OVS tree, built into a cache), measured from outside the
processes and written as the same google-benchmark JSON as the model."""
