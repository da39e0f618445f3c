package main

import (
	"fmt"

	"github.com/hashicorp/vault/helper/namespace"
	"github.com/hashicorp/vault/sdk/logical"
	"github.com/hashicorp/vault/vault"
)

// mountKV mounts a KV version 2 engine at kv/, the mount of the seed's paths.
func mountKV(core *vault.Core, token string) error {
	req := &logical.Request{
		Operation:   logical.UpdateOperation,
		ClientToken: token,
		Path:        "sys/mounts/kv",
		Data: map[string]any{
			"type":    "kv",
			"options": map[string]string{"version": "2"},
		},
	}
	resp, err := core.HandleRequest(namespace.RootContext(nil), req)
	if err != nil {
		return fmt.Errorf("mount kv: %w", err)
	}
	if resp.IsError() {
		return fmt.Errorf("mount kv: %w", resp.Error())
	}
	return nil
}
