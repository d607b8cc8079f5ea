package abc

import "strings"

// Metadata is an object's or property's key=value pairs ("schema",
// "interpretation", "geoScope", …).
type Metadata map[string]string

// parseMetadata reads Alembic's serialized form, "k1=v1;k2=v2". Pairs
// without "=" are skipped, as Alembic's own reader does.
func parseMetadata(s string) Metadata {
	if s == "" {
		return nil
	}
	m := Metadata{}
	for _, kv := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(kv, "=")
		if ok && k != "" {
			m[k] = v
		}
	}
	return m
}
