package usd

import (
	"strconv"
	"strings"
)

// identifier turns s into a USD identifier ([A-Za-z_][A-Za-z0-9_]*): other
// characters become '_', a leading digit gets a '_' before it, and an
// empty name becomes def. The original names travel beside the
// identifiers (the Skeleton's jointNames, an animation's customData), so
// nothing is lost.
func identifier(s, def string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return def
	}
	return b.String()
}

// namer hands out identifiers unique within one scope: a second "arm"
// becomes "arm_2", and so on past any name already taken.
type namer map[string]bool

func (n namer) name(s, def string) string {
	id := identifier(s, def)
	if !n[id] {
		n[id] = true
		return id
	}
	for k := 2; ; k++ {
		c := id + "_" + strconv.Itoa(k)
		if !n[c] {
			n[c] = true
			return c
		}
	}
}
