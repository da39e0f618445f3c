// Package drives finds, erases and checks a host's tenant data drives.
//
// A tenant drive is a whole block device under /sys/block that the site
// policy names by serial, by model, or as "every NVMe namespace"
// (wire.DrivePolicy). The disk that holds /, /boot or /boot/efi (found
// from the agent's mountinfo and /sys/block, through dm slaves) is never
// one: the policy naming it by serial or model is refused with an error
// before anything is written, and "every NVMe namespace" leaves it out.
// A host whose root filesystem cannot be traced to a disk erases nothing.
//
// The erase is the drive's own: nvme sanitize (crypto erase, then block
// erase), nvme format with secure erase settings (crypto, then user
// data), then sanitize overwrite, chosen from nvme id-ctrl's SANICAP,
// FNA and OACS and falling back to the next one the drive offers when
// one fails. A sanitize is followed on nvme sanitize-log until it ends.
// Sanitize acts on every namespace of the controller, and format too when
// FNA says so: those are used only when every namespace of the controller
// is a tenant drive. A drive with no method left is reported and fails;
// it is never overwritten in part.
//
// Canaries are random blocks written at random offsets before an erase;
// only their offsets and SHA-256 digests leave the host. After the erase
// the same offsets are read back (O_DIRECT where the device allows it,
// so the page cache cannot answer): a block whose digest still matches
// is a surviving canary, and the erase did not reach it.
package drives
