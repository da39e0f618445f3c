// Package bom builds a node's bill of materials (lifecycle.BOM) from what
// the agent reports (wire.Inventory, with its enrollment and with
// node.validate_clean's evidence) and from MAAS's commissioning data
// (the machine's disks and interfaces): MAAS's serials and MACs where it
// has them, the agent's firmware, VBIOS and PCI addresses beside them.
package bom
