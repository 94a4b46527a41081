# fuzz/profile found: a children column whose child table has no "table"
# line passed the checks, and profile_resolve() then counted the child rows
# through a null table spec.  Against ovn-nb.
table Logical_Switch 2
  name str "ls{i}"
  ports children 1..3 Logical_Switch_Port
