// Package gpu drives the GPU vendor tools for node.gpu_scrub and
// node.validate_clean, through the task exec seam only: NVIDIA through
// nvidia-smi (CSV, --format=csv,noheader,nounits, fields in a fixed order
// with process_name last because nothing in the CSV is quoted), AMD
// through amd-smi (--json; stdout may start with a non-JSON warning line,
// metric output may come in a {"gpu_data": [...]} envelope, and reset
// prints one JSON document per GPU or hive), with rocm-smi as AMD's
// fallback when amd-smi is not installed. Values the tools report as
// absent ([N/A], [Not Supported], "N/A", ...) are unknown, never clean.
//
// Reset honours the vendors' preconditions (gpu-tools.md §1.6, §3.3): all
// of a vendor's GPUs on the node are reset in one command (NVLink and
// NVSwitch peers reset together whatever the Fabric Manager state;
// MI300X resets whole XGMI hives), NVIDIA persistence mode is turned off
// first and restored after, and the NVSwitch fabric is polled back to
// Completed before the GPU is read back.
package gpu
