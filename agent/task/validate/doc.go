// Package validate is the node.validate_clean task. It changes nothing
// and proves the node holds no tenant residue: no tenant users (the rule
// of agent/task/users), no process of a tenant-range UID, no mount
// outside the allowlist, the scratch paths (/tmp, /var/tmp and the
// configured ones) empty, and every GPU clean by gpu.Judge (no compute
// process, memory used under the threshold, no pending retired or
// remapped pages, uncorrectable volatile ECC count zero). Every check is
// in the evidence with what failed it.
//
// The mount allowlist: the root filesystem, /boot and /boot/efi, the
// kernel and runtime trees (/proc, /sys, /dev, /run except a tenant's
// /run/user/<uid>), snaps, and the configured and requested points.
package validate
