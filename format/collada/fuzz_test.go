package collada

import (
	"bytes"
	"encoding/xml"
	"testing"
	"unicode/utf8"

	"github.com/meshrig/meshrig/format"
)

// FuzzWriteNames writes rigs whose joint and clip names are arbitrary
// strings: every valid rig must give a well-formed document whose IDs are
// unique and resolve, which replays, and which keeps every name that XML
// can hold in the node and clip name attributes.
func FuzzWriteNames(f *testing.F) {
	f.Add("a", "b", "c", "walk")
	f.Add("mesh", "skin", "mesh-positions", "")
	f.Add("a.b", "a_b", "1", "clip 0")
	f.Add("\x00", "\xff", "épaule", "<&>\"'")
	f.Add("skin-joints", "a", "a_", "a")
	f.Fuzz(func(t *testing.T, j0, j1, j2, clip string) {
		r := chainRig(t, 3, 2, 3, 2, 2, true)
		r.Skeleton.Joints[0].Name, r.Skeleton.Joints[1].Name, r.Skeleton.Joints[2].Name = j0, j1, j2
		r.Clips[1].Name = clip
		if r.Validate() != nil {
			return // empty or repeated joint names
		}
		var buf bytes.Buffer
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := checkReferences(buf.Bytes()); err != nil {
			t.Fatal(err)
		}
		rp, err := decode(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if xmlSafe(clip) && rp.clips[1].name != clip {
			t.Fatalf("clip name %q read back as %q", clip, rp.clips[1].name)
		}
		var doc document
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		n := doc.Scenes[0].Nodes[0]
		for j, jt := range r.Skeleton.Joints {
			if xmlSafe(jt.Name) && n.Name != jt.Name {
				t.Fatalf("joint %d name %q read back as %q", j, jt.Name, n.Name)
			}
			if len(n.Children) > 0 {
				n = n.Children[0]
			}
		}
	})
}

// xmlSafe reports whether s is valid UTF-8 made of characters XML 1.0
// allows, so that it survives a round trip through an attribute.
func xmlSafe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		ok := r == 0x09 || r == 0x0A || r == 0x0D ||
			(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
		if !ok || r == utf8.RuneError {
			return false
		}
	}
	return true
}
