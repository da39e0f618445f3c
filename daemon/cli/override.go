package cli

import (
	"context"
	"net/http"
	"net/url"
)

type override struct {
	ID            string
	SelectorType  string `json:"selector_type"`
	SelectorValue string `json:"selector_value"`
	VaultPath     string `json:"vault_path"`
	Status        string
}

func (o override) row() []string {
	return []string{o.ID, o.SelectorType, o.SelectorValue, o.VaultPath, o.Status}
}

const overrideHeader = "ID SELECTOR VALUE VAULT_PATH STATUS"

func overrideCreate(ctx context.Context, s *session, args []string) error {
	fs := s.flags()
	typ := fs.String("type", "", "selector: pxe_mac, ipmi_ip or hostname")
	val := fs.String("value", "", "selector value")
	path := fs.String("vault-path", "", "Vault path of the credentials (default kv/maas-sites/<site>/power/overrides/<id>)")
	status := fs.String("status", "", "active (default) or inactive")
	fs.StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	body := map[string]string{"selector_type": *typ, "selector_value": *val}
	if *path != "" {
		body["vault_path"] = *path
	}
	if *status != "" {
		body["status"] = *status
	}
	var o override
	raw, err := s.call(ctx, http.MethodPost, admin+"/maas-sites/"+pos[0]+"/power-overrides", body, &o, nil)
	if err != nil {
		return err
	}
	return s.show(raw, overrideHeader, [][]string{o.row()})
}

func overrideList(ctx context.Context, s *session, args []string) error {
	limit := limitFlag(s.flags())
	pos, err := s.parse(args, 1, "SITE")
	if err != nil {
		return err
	}
	items, raw, err := s.listAll(ctx, admin+"/maas-sites/"+url.PathEscape(pos[0])+"/power-overrides", url.Values{}, "overrides", *limit)
	if err != nil {
		return err
	}
	overrides, err := decodeAll[override](items)
	if err != nil {
		return err
	}
	rows := [][]string{}
	for _, o := range overrides {
		rows = append(rows, o.row())
	}
	return s.show(raw, overrideHeader, rows)
}

func overrideDelete(ctx context.Context, s *session, args []string) error {
	return s.deleteIn(ctx, args, "power-overrides")
}

// deleteIn deletes SITE's sub-record ID under kind.
func (s *session) deleteIn(ctx context.Context, args []string, kind string) error {
	s.flags().StringVar(&s.reason, "reason", "", "reason recorded in the audit log")
	pos, err := s.parse(args, 2, "SITE", "ID")
	if err != nil {
		return err
	}
	raw, err := s.call(ctx, http.MethodDelete, admin+"/maas-sites/"+pos[0]+"/"+kind+"/"+pos[1], nil, nil, nil)
	if err != nil {
		return err
	}
	return s.kv(raw, "deleted", pos[1])
}
