package cert

import (
	"encoding/json"
	"errors"
	"fmt"

	attv1 "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// Subject digest keys: custom DigestSet algorithms naming the node.
const (
	digestNodeID = "gpuaasNodeId"
	digestSystem = "maasSystemId"
)

// Certificate is a statement's content: its subject and predicate.
type Certificate struct {
	Node      Node
	Predicate Predicate
}

// Statement encodes c as an in-toto Statement v1 (the DSSE payload).
func (c Certificate) Statement() ([]byte, error) {
	if c.Node.NodeID == "" || c.Node.MAASSystemID == "" {
		return nil, errors.New("certificate: node id and MAAS system id are required")
	}
	raw, err := json.Marshal(c.Predicate)
	if err != nil {
		return nil, fmt.Errorf("certificate: encode predicate: %w", err)
	}
	pred := &structpb.Struct{}
	if err := protojson.Unmarshal(raw, pred); err != nil {
		return nil, fmt.Errorf("certificate: encode predicate: %w", err)
	}
	subject := &attv1.ResourceDescriptor{
		Name:   "node/" + c.Node.NodeID,
		Digest: map[string]string{digestNodeID: c.Node.NodeID, digestSystem: c.Node.MAASSystemID},
	}
	if len(c.Node.Serials) > 0 {
		list := make([]any, len(c.Node.Serials))
		for i, s := range c.Node.Serials {
			list[i] = s
		}
		ann, err := structpb.NewStruct(map[string]any{"serials": list})
		if err != nil {
			return nil, fmt.Errorf("certificate: serials: %w", err)
		}
		subject.Annotations = ann
	}
	st := &attv1.Statement{
		Type:          attv1.StatementTypeUri,
		Subject:       []*attv1.ResourceDescriptor{subject},
		PredicateType: PredicateType,
		Predicate:     pred,
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("certificate: %w", err)
	}
	return protojson.Marshal(st)
}

// ParseStatement decodes and validates an in-toto Statement carrying a
// clean certificate.
func ParseStatement(b []byte) (Certificate, error) {
	st := &attv1.Statement{}
	if err := protojson.Unmarshal(b, st); err != nil {
		return Certificate{}, fmt.Errorf("not an in-toto statement: %w", err)
	}
	if err := st.Validate(); err != nil {
		return Certificate{}, fmt.Errorf("invalid in-toto statement: %w", err)
	}
	if st.GetPredicateType() != PredicateType {
		return Certificate{}, fmt.Errorf("predicate type %q is not %q", st.GetPredicateType(), PredicateType)
	}
	if len(st.GetSubject()) != 1 {
		return Certificate{}, fmt.Errorf("want one subject (the node), got %d", len(st.GetSubject()))
	}
	d := st.GetSubject()[0].GetDigest()
	c := Certificate{Node: Node{NodeID: d[digestNodeID], MAASSystemID: d[digestSystem]}}
	for _, v := range st.GetSubject()[0].GetAnnotations().GetFields()["serials"].GetListValue().GetValues() {
		c.Node.Serials = append(c.Node.Serials, v.GetStringValue())
	}
	raw, err := protojson.Marshal(st.GetPredicate())
	if err != nil {
		return Certificate{}, fmt.Errorf("predicate: %w", err)
	}
	if err := json.Unmarshal(raw, &c.Predicate); err != nil {
		return Certificate{}, fmt.Errorf("predicate: %w", err)
	}
	return c, nil
}
