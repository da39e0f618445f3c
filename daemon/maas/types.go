package maas

// Link modes MAAS accepts for an interface's subnet link.
const (
	LinkAuto   = "auto"
	LinkDHCP   = "dhcp"
	LinkStatic = "static"
	LinkUp     = "link_up"
)
