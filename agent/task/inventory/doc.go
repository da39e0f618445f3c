// Package inventory reads the host's bill of materials for enrollment
// and node.validate_clean: GPUs (through the vendor tools of
// agent/task/gpu), NVMe controllers (/sys/class/nvme: serial, model,
// firmware_rev), physical NICs (/sys/class/net with a device link: MAC,
// PCI address; firmware from "ethtool -i"), the BIOS version
// (/sys/class/dmi/id/bios_version) and the BMC firmware ("ipmitool mc
// info"). Every path is read under the host root; a tool that is not
// installed leaves its fields empty.
package inventory
