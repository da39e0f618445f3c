package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

// builder turns package specs into .deb files.
type builder struct {
	opts  options
	gen   string    // generated files (man pages, completion, changelogs)
	mtime time.Time // SOURCE_DATE_EPOCH
}

// scripts are the maintainer scripts, shipped when deb/<pkg>/scripts has them.
var scripts = []string{"preinst", "postinst", "prerm", "postrm"}

// write builds p into the output directory and returns the file's path.
func (b builder) write(p pkgSpec) (string, error) {
	info, err := b.info(p)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := deb.Default.Package(info, &buf); err != nil {
		return "", err
	}
	path := filepath.Join(b.opts.out, fmt.Sprintf("%s_%s_%s.deb", p.name, b.opts.version, p.arch))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	return path, nil
}

func (b builder) info(p pkgSpec) (*nfpm.Info, error) {
	contents := files.Contents{}
	depends := p.depends
	for _, f := range p.files {
		src := b.path(f)
		fi, err := os.Stat(src)
		if err != nil {
			return nil, err
		}
		if f.from == fromBin {
			libs, err := libDepends(p.name, src)
			if err != nil {
				return nil, err
			}
			depends = append(depends[:len(depends):len(depends)], libs...)
		}
		typ := files.TypeFile
		if f.conffile {
			typ = files.TypeConfig
		}
		contents = append(contents, &files.Content{Source: src, Destination: f.dst, Type: typ,
			FileInfo: &files.ContentFileInfo{Owner: "root", Group: "root", Mode: f.mode, MTime: b.mtime, Size: fi.Size()}})
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name: p.name, Arch: p.arch, Platform: "linux", Version: b.opts.version, VersionSchema: "none",
		Section: "admin", Priority: "optional", Maintainer: maintainer, Homepage: homepage,
		Description: p.summary + "\n" + p.description, MTime: b.mtime,
		Overridables: nfpm.Overridables{Depends: depends, Recommends: p.recommends, Contents: contents},
	})
	for _, s := range scripts {
		path := filepath.Join(b.opts.src, "deb", p.name, "scripts", s)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		switch s {
		case "preinst":
			info.Scripts.PreInstall = path
		case "postinst":
			info.Scripts.PostInstall = path
		case "prerm":
			info.Scripts.PreRemove = path
		case "postrm":
			info.Scripts.PostRemove = path
		}
	}
	// The parent directories nfpm adds take info.MTime.
	return info, nil
}

// path is the on-disk source of f.
func (b builder) path(f file) string {
	switch f.from {
	case fromBin:
		return filepath.Join(b.opts.bin, f.src)
	case fromGen:
		return filepath.Join(b.gen, f.src)
	}
	return filepath.Join(b.opts.src, f.src)
}
