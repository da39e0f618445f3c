package cli

import "strconv"

// nodeRecord is the part of a node record that node list and node get show.
type nodeRecord struct {
	ID, SiteID, Hostname, SKU, Status string
	// GPUs, Region and Port are the node fields of seed 001 §8.1.
	GPUs   int    `json:"gpus_total"`
	Region string `json:"region_code"`
	Port   int
}

// fields are the node's SKU, GPU count, region and port as table cells.
func (n nodeRecord) fields() []string {
	return []string{dash(n.SKU), strconv.Itoa(n.GPUs), dash(n.Region), strconv.Itoa(n.Port)}
}
