// Package cloudinit renders the first-boot user-data that MAAS hands to a
// GPU machine at deploy time (DESIGN.md §8, seed 001 §4.3 and §9).
//
// The output is one multipart MIME document whose parts come in a fixed
// order, each a text/cloud-config:
//
//  1. 00-site-bootstrap.cfg: the infra-owned site bootstrap bundle, as a
//     versioned reference fetched and run first (only when set);
//  2. 10-deploy-user.cfg: the site's deploy user with a SHA-512 crypt
//     password hash (the plaintext never leaves the renderer);
//  3. 20-node-agent.cfg: gpuaas-node-agent's package install, its config
//     file, the enrollment token (0600), the CA bundle;
//  4. 30-maas-hardware-sync.cfg: /etc/maas/maas-machine-creds.yml (0600,
//     MAAS's format) and the maas_hardware_sync timer and service;
//  5. 40-DESTRUCTIVE-share-disks.cfg: the /shareN initialisation of
//     non-root disks, only when the policy enables it;
//  6. 50-roce-routing.cfg: per-interface policy routing for the node's
//     RoCE /31 links, only with assignments and phase-2 RoCE enabled.
//
// Every part carries a Merge-Type header that appends lists and merges
// dictionaries, so runcmd entries run in part order and no part replaces
// another part's write_files. Commands in runcmd are argument lists and
// never carry a secret; secrets reach the host only as the files that need
// them.
//
// Renderer depends on nothing in daemon/; Bootstrap, the workflow's port,
// translates the domain's lifecycle.BootstrapSpec into Params at the edge
// (the only daemon package it imports is the domain). Rendering is deterministic: the password
// salt comes from an injected reader and the MIME boundary is a digest of
// the parts.
package cloudinit
