package maassim

import "fmt"

func renderDisk(m *machine, d *disk) jsonBlockDevice {
	uri := fmt.Sprintf("%snodes/%s/blockdevices/%d/", apiRoot, m.systemID, d.id)
	j := jsonBlockDevice{SystemID: m.systemID, ID: d.id, Name: d.name, Type: "physical",
		Path: "/dev/disk/by-dname/" + d.name, Model: d.model, Serial: d.serial, IDPath: d.idPath,
		Size: d.size, BlockSize: 512, AvailableSize: d.size, UsedFor: "Unused", Tags: []string{},
		Partitions: []jsonPartition{}, FirmwareVersion: "2.1.0", ResourceURI: uri}
	if d.boss {
		j.Tags = []string{"ssd", "boss"}
	} else {
		j.Tags = []string{"ssd", "nvme"}
	}
	if len(d.partitions) > 0 {
		gpt := "GPT"
		j.PartitionTableType = &gpt
		j.UsedFor = fmt.Sprintf("GPT partitioned with %d partitions", len(d.partitions))
		j.AvailableSize = 0
		j.UsedSize = d.size
	}
	for i, p := range d.partitions {
		mp := p.mountPoint
		j.Partitions = append(j.Partitions, jsonPartition{ID: p.id, UUID: fmt.Sprintf("%08x-0000-4000-8000-%012x", p.id, d.id),
			Size: p.size, Bootable: p.bootable, Tags: []string{}, Type: "partition",
			UsedFor: p.fstype + " formatted filesystem mounted at " + p.mountPoint, SystemID: m.systemID,
			DeviceID: d.id, Path: fmt.Sprintf("/dev/disk/by-dname/%s-part%d", d.name, i+1),
			Filesystem:  &jsonFilesystem{FSType: p.fstype, UUID: fmt.Sprintf("fs-%d", p.id), MountPoint: &mp},
			ResourceURI: fmt.Sprintf("%spartition/%d", uri, p.id)})
	}
	return j
}
