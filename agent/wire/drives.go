package wire

// Tenant drive erase and canary read-back (node.storage_cleanup mode
// drives, node.canary_plant, node.canary_check).

// Task types of the canary read-back around MAAS's erase.
const (
	TypeCanaryPlant = "node.canary_plant"
	TypeCanaryCheck = "node.canary_check"
)

// StorageDrives is the storage cleanup mode that erases the tenant drives
// with the drive's own sanitize or format and recreates their layout.
const StorageDrives = "drives"

// Canary placements: where on a drive the canary blocks go.
const (
	// PlaceFull spreads them over the whole drive (the drive's own erase,
	// MAAS's secure or full erase).
	PlaceFull = "full"
	// PlaceQuick keeps them in the first and last QuickEraseBytes, the
	// only parts MAAS's quick erase overwrites.
	PlaceQuick = "quick"
)

// QuickEraseBytes is how much MAAS's quick erase wipes at the start and
// at the end of each disk (maas_wipe.py: 2 MiB).
const QuickEraseBytes = 2 << 20

// DrivePolicy names the tenant data drives (the site policy's
// tenant_drives). A drive is a tenant drive when its serial or model is
// listed, or, with AllNVMe, when it is an NVMe namespace. The disk that
// holds / or /boot is never one, whatever this says.
type DrivePolicy struct {
	Serials []string `json:"serials,omitempty"`
	Models  []string `json:"models,omitempty"`
	AllNVMe bool     `json:"all_nvme,omitempty"`
	// Filesystem, when set (ext4 or xfs), is made on each erased drive
	// that had none mounted; a drive mounted before the erase gets its
	// filesystem type and mount point back.
	Filesystem string `json:"filesystem,omitempty"`
	// Canaries is the number of canary blocks per drive (0: 8).
	Canaries int `json:"canaries,omitempty"`
}

// Canary is one canary block: its byte offset on the drive, its size and
// the SHA-256 of the random bytes written there. The bytes themselves and
// their source never leave the host.
type Canary struct {
	Offset int64  `json:"offset"`
	Size   int    `json:"size"`
	SHA256 string `json:"sha256"`
}

// DriveEvidence is one tenant drive's record: identity, the erase method
// used and those tried before it, the canaries and those that survived.
type DriveEvidence struct {
	Device string `json:"device"`
	Serial string `json:"serial,omitempty"`
	Model  string `json:"model,omitempty"`
	// Method is the erase that succeeded (sanitize-crypto,
	// sanitize-block, format-crypto, format-user-data,
	// sanitize-overwrite), empty when none did.
	Method    string   `json:"method,omitempty"`
	Tried     []string `json:"tried,omitempty"`
	Canaries  []Canary `json:"canaries,omitempty"`
	Survivors []int64  `json:"survivors,omitempty"` // offsets of canaries read back intact
	Passed    bool     `json:"passed"`
	Reason    string   `json:"reason,omitempty"`
}

// EraseEvidence says who erased the tenant drives, how, what that mode
// covers, and what the canary read-back found.
type EraseEvidence struct {
	By     string `json:"by"`     // "drive" (the agent ran the drive's own erase) or "maas"
	Mode   string `json:"mode"`   // the methods used, or MAAS's erase mode (quick, secure, full)
	Covers string `json:"covers"` // what the mode overwrites
	// Canary is passed, failed or not_measured.
	Canary string `json:"canary"`
}

// Canary verdicts.
const (
	CanaryPassed      = "passed"
	CanaryFailed      = "failed"
	CanaryNotMeasured = "not_measured"
)

// CanaryPlantPayload is the payload of node.canary_plant.
type CanaryPlantPayload struct {
	Drives    DrivePolicy `json:"drives"`
	Placement string      `json:"placement"`
}

// CanaryCheckPayload is the payload of node.canary_check: the drives and
// canaries the plant reported, and what erased them (for the evidence).
type CanaryCheckPayload struct {
	Planted []DriveEvidence `json:"planted"`
	Erase   EraseEvidence   `json:"erase"`
}
