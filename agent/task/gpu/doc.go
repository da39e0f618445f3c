// Package gpu drives the GPU vendor tools for node.gpu_scrub and
// node.validate_clean, through the task exec seam only: NVIDIA through
// nvidia-smi (CSV, --format=csv,noheader,nounits, process_name last
// because nothing in the CSV is quoted), AMD through amd-smi (--json;
// stdout may start with a non-JSON warning line, metric output may come
// in a {"gpu_data": [...]} envelope, and reset prints one JSON document
// per GPU or hive). There is no rocm-smi fallback: a host with AMD GPUs
// on the PCI bus and no amd-smi fails with the tool named. Values the
// tools report as absent ([N/A], [Not Supported], "N/A", ...) are
// unknown, never clean.
//
// Driver branches differ in their --query-gpu fields (R535 has no
// gpu_recovery_action): the driver's own --help-query-gpu decides which
// fields are asked for, and the evidence names those left out and the
// rule they are judged under.
//
// The scrub judges the tenancy's history (volatile and aggregate ECC,
// pending and done page retirement and row remapping) on the reading
// taken before anything is reset or cleared, and keeps that reading and
// the one after in the evidence. MIG is torn down to the site's layout
// (none) before the reset. Reset honours the vendors' preconditions
// (gpu-tools.md §1.6, §3.3): all of a vendor's GPUs on the node are reset
// in one command (NVLink and NVSwitch peers reset together whatever the
// Fabric Manager state; MI300X resets whole XGMI hives), the driver's
// other clients that run as units (DCGM's host engine, the DCGM exporter,
// nvidia-persistenced) are stopped first and started again after, NVIDIA
// persistence mode is turned off first and restored after, a GPU counts
// as reset only when nvidia-smi names it, and the NVSwitch fabric is
// polled back to Completed before the GPU is read back. A GPU that
// refuses reset falls back to unloading and loading the driver's modules
// (modprobe refuses while anything holds it: the host then needs a
// reboot, which the evidence says). After the reset
// the settings a tenant with root can leave go back to the GPU's
// defaults (clocks, compute mode, accounted processes, the power limit,
// a pending ECC mode change), each a step with its values; a power limit
// off its default or an ECC mode change still pending fails the GPU.
//
// AMD goes as deep as amd-smi allows. The XGMI error status and the
// XGMI_WAFL block's counts (metric --xgmi-err --ecc-blocks) and process
// isolation (static --process-isolation) are read with the inventory,
// each query on its own so that a release without one leaves its values
// unknown with an amd_fields line; an XGMI error status or uncorrectable
// XGMI count in the tenancy's history fails the GPU. Before the reset the
// units that keep /dev/kfd open (the ROCm device metrics exporter and its
// GPU agent) are stopped, and every other process holding /dev/kfd is
// killed (kill_processes) or named with the reset skipped: amdgpu refuses
// a reset while one holds it, and a reset ends them all. After it each
// GPU's local data is cleaned with process isolation enabled and the
// isolation set back to what the GPU had, and its XGMI error counts are
// reset for the next tenancy.
package gpu
