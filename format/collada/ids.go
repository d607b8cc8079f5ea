package collada

import "strings"

// namer hands out XML IDs unique within the document. Joints are named
// first so they keep their names; every other ID adapts around them.
type namer map[string]bool

// take returns base, or base with underscores appended, such that base+s
// is still free for every suffix s, and reserves all of them. A section
// takes its base once and derives its sub-IDs with those suffixes.
func (n namer) take(base string, suffixes ...string) string {
	if len(suffixes) == 0 {
		suffixes = []string{""}
	}
	for !n.free(base, suffixes) {
		base += "_"
	}
	for _, s := range suffixes {
		n[base+s] = true
	}
	return base
}

func (n namer) free(base string, suffixes []string) bool {
	for _, s := range suffixes {
		if n[base+s] {
			return false
		}
	}
	return true
}

// jointIDs returns the ID (also used as SID and in the skin's Name_array)
// of every joint: its name made an NCName, made unique.
func jointIDs(names []string, n namer) []string {
	out := make([]string, len(names))
	for j, name := range names {
		out[j] = n.take(ncname(name, "joint"))
	}
	return out
}

// ncname makes s a valid XML NCName that is also safe in COLLADA target
// addresses ("id/sid.member", "id/sid(0)(1)"): letters, digits, '_' and
// '-' only, so '.' becomes '_' as well (assimp splits targets at the first
// '.'). An empty result becomes fallback; a leading digit or '-' gets a
// '_' in front.
func ncname(s, fallback string) string {
	var b strings.Builder
	for i, c := range s {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		digit := c == '-' || (c >= '0' && c <= '9')
		if i == 0 && digit {
			b.WriteByte('_')
		}
		if letter || digit {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return fallback
	}
	return b.String()
}
