package fbx

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

// edit returns tinyRig(7400) changed by fn.
func edited(fn func(d *Document)) []byte {
	d := tinyRig(7400)
	fn(d)
	return encode(d, 0)
}

// objectNode returns the Objects child with ID id.
func objectNode(d *Document, id int64) *Node {
	for _, n := range d.Find("Objects").Children {
		if n.Props[0].Int == id {
			return n
		}
	}
	panic("no object")
}

// TestModelRefusals: what the object model refuses, each with the offset
// of the record at fault.
func TestModelRefusals(t *testing.T) {
	conns := func(d *Document) *Node { return d.Find("Connections") }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"cycle of two models", edited(func(d *Document) {
			conns(d).Children = append(conns(d).Children, nd("C", ps("OO", int64(20), int64(21))))
		}), "a cycle"},
		{"cycle through a cluster", edited(func(d *Document) {
			conns(d).Children = append(conns(d).Children, nd("C", ps("OO", int64(30), int64(32))))
		}), "a cycle"},
		{"self connection", edited(func(d *Document) {
			conns(d).Children = append(conns(d).Children, nd("C", ps("OO", int64(11), int64(11))))
		}), "connected to itself"},
		{"connection to nothing", edited(func(d *Document) {
			conns(d).Children = append(conns(d).Children, nd("C", ps("OO", int64(11), int64(99))))
		}), "does not exist"},
		{"two parent models", edited(func(d *Document) {
			conns(d).Children = append(conns(d).Children, nd("C", ps("OO", int64(21), int64(11))))
		}), "parent models"},
		{"ID used twice", edited(func(d *Document) {
			objectNode(d, 21).Props[0].Int = 20
		}), "used twice"},
		{"vertices of the wrong type", edited(func(d *Document) {
			objectNode(d, 10).Child("Vertices").Props = ps([]int32{0, 0, 0})
		}), "want a float array"},
		{"polygon index out of range", edited(func(d *Document) {
			objectNode(d, 10).Child("PolygonVertexIndex").Props = ps([]int32{0, 1, -10})
		}), "uses vertex 10"},
		{"polygon repeats a vertex", edited(func(d *Document) {
			objectNode(d, 10).Child("PolygonVertexIndex").Props = ps([]int32{0, 1, 0, -4, 1, 2, -4})
		}), "uses vertex 1 twice"},
		{"polygon of two corners", edited(func(d *Document) {
			objectNode(d, 10).Child("PolygonVertexIndex").Props = ps([]int32{0, -2, 1, 2, -4})
		}), "2 corners"},
		{"last polygon open", edited(func(d *Document) {
			objectNode(d, 10).Child("PolygonVertexIndex").Props = ps([]int32{0, 1, 2})
		}), "no end marker"},
		{"cluster index out of range", edited(func(d *Document) {
			objectNode(d, 31).Child("Indexes").Props = ps([]int32{0, 4, 5})
		}), "out of range"},
		{"weights short", edited(func(d *Document) {
			objectNode(d, 31).Child("Weights").Props = ps([]float64{1})
		}), "3 indexes, 1 weights"},
		{"matrix of 12 numbers", edited(func(d *Document) {
			objectNode(d, 31).Child("TransformLink").Props = ps(make([]float64, 12))
		}), "want 16"},
		{"rotation order", edited(func(d *Document) {
			p := objectNode(d, 21).Child("Properties70")
			p.Children = append(p.Children, p70("RotationOrder", "enum", 9))
		}), "RotationOrder"},
		{"translation of strings", edited(func(d *Document) {
			p := objectNode(d, 21).Child("Properties70")
			p.Children[0] = p70("Lcl Translation", "Lcl Translation", "a", "b", "c")
		}), "three finite numbers"},
		{"key times spanning years", edited(func(d *Document) {
			objectNode(d, 53).Child("KeyTime").Props = ps([]int64{0, 1 << 60})
		}), "more than the"},
		{"key times backwards", edited(func(d *Document) {
			objectNode(d, 53).Child("KeyTime").Props = ps([]int64{5, 1})
		}), "not increasing"},
		{"UV index out of range", edited(func(d *Document) {
			objectNode(d, 10).Child("LayerElementUV").Child("UVIndex").Props = ps([]int32{0, 1, 2, 0, 1, 2, 7})
		}), "out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadScene(fstest.MapFS{"a.fbx": {Data: tc.data}}, "a.fbx", format.SceneOptions{})
			if err == nil {
				t.Fatal("read without error")
			}
			if off := offsetOf(t, err); off < int64(headerLen) || off >= int64(len(tc.data)) {
				t.Errorf("offset %d outside the records", off)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}
