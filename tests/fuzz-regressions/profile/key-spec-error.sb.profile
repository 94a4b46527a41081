# fuzz/profile found: a "key" line whose value spec fails after allocating
# (here a bad {hex:N} template) leaked that spec.  Against ovn-sb.
profile key-spec-error
table SB_Global 1 fixed
  options map
    key "mac_prefix" 1 str "{hex:z}"
