package wire

// Inventory is a node's bill of materials as the agent reads it: the
// identities that must not change between tenants unless an operator
// says so. Empty strings are values the host did not give.
type Inventory struct {
	GPUs        []InventoryGPU   `json:"gpus,omitempty"`
	Drives      []InventoryDrive `json:"drives,omitempty"`
	NICs        []InventoryNIC   `json:"nics,omitempty"`
	BIOSVersion string           `json:"bios_version,omitempty"`
	BMCVersion  string           `json:"bmc_version,omitempty"`
}

// InventoryGPU is one GPU's identity.
type InventoryGPU struct {
	Vendor          string `json:"vendor"`
	Model           string `json:"model,omitempty"`
	UUID            string `json:"uuid"`
	Serial          string `json:"serial,omitempty"`
	BoardPartNumber string `json:"board_part_number,omitempty"`
	VBIOS           string `json:"vbios,omitempty"`
	BusID           string `json:"bus_id,omitempty"`
}

// InventoryDrive is one NVMe controller.
type InventoryDrive struct {
	Name     string `json:"name"`
	Serial   string `json:"serial"`
	Model    string `json:"model,omitempty"`
	Firmware string `json:"firmware,omitempty"`
}

// InventoryNIC is one physical network interface.
type InventoryNIC struct {
	Name       string `json:"name"`
	MAC        string `json:"mac"`
	Firmware   string `json:"firmware,omitempty"`
	PCIAddress string `json:"pci_address,omitempty"`
}
