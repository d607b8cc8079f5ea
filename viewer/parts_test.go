package viewer

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// TwoParts gives r's mesh a surface of two parts, as an OBJ with two
// usemtl groups reads: the triangles below the mesh's mid-height are
// "lower" (a red material), the others "upper" (blue). Its one UV set has
// a value per corner and differs on the two sides of the cut, so the
// glTF writer copies the vertices the cut runs through. The browser test
// uses it too.
func TwoParts(r *rig.Rig) {
	m := r.Mesh
	n := len(m.Verts)
	lo, hi := m.Verts[0][1], m.Verts[0][1]
	for _, v := range m.Verts {
		lo, hi = min(lo, v[1]), max(hi, v[1])
	}
	mid := (lo + hi) / 2
	red, blue := mesh.NewMaterial("red"), mesh.NewMaterial("blue")
	red.BaseColor, blue.BaseColor = [4]float32{0.9, 0.1, 0.1, 1}, [4]float32{0.1, 0.2, 0.9, 1}
	red.Metallic, blue.Metallic = 0, 0
	s := &mesh.Surface{
		Materials: []mesh.Material{red, blue},
		Parts:     []mesh.Part{{Name: "lower", Material: 0}, {Name: "upper", Material: 1}},
		TriPart:   make([]int32, len(m.Tris)),
		UVs:       []mesh.Attr[[2]float32]{{Values: make([][2]float32, 2*n), Index: make([]int32, 3*len(m.Tris))}},
	}
	for v, p := range m.Verts {
		s.UVs[0].Values[v] = [2]float32{float32(p[0]), float32(p[1])}
		s.UVs[0].Values[n+v] = [2]float32{float32(p[0]) + 1, float32(p[1])}
	}
	for t, tri := range m.Tris {
		c := (m.Verts[tri[0]][1] + m.Verts[tri[1]][1] + m.Verts[tri[2]][1]) / 3
		part := int32(0)
		if c >= mid {
			part = 1
		}
		s.TriPart[t] = part
		for k, v := range tri {
			s.UVs[0].Index[3*t+k] = int32(v + n*int(part))
		}
	}
	m.Surface = s
}

// TestStateCopies: State.copies maps every vertex rig.glb holds past the
// rig's own back to the rig vertex it copies — same position, joints and
// weights in the file — for a two-part mesh with a UV seam at the cut;
// the first N vertices are the rig's, in order.
func TestStateCopies(t *testing.T) {
	r, in := snake(t)
	if st := newServer(t, Options{Rig: r, Input: in}).state(); st.Copies != nil {
		t.Fatalf("a rig without a surface: copies %v, want none", st.Copies)
	}
	TwoParts(r)
	ts := newServer(t, Options{Rig: r, Input: in})
	st := ts.state()
	n := st.Vertices
	if len(st.Copies) == 0 {
		t.Fatal("no copies listed for a mesh with a UV seam")
	}
	doc := new(gltflib.Document)
	if err := gltflib.NewDecoder(bytes.NewReader(ts.glb())).Decode(doc); err != nil {
		t.Fatal(err)
	}
	prims := doc.Meshes[0].Primitives
	if len(prims) != 2 {
		t.Fatalf("rig.glb has %d primitives, want 2 (one per part)", len(prims))
	}
	a := prims[0].Attributes
	for _, p := range prims[1:] {
		if !maps.Equal(p.Attributes, a) {
			t.Fatalf("the primitives do not share their vertex attributes: %v vs %v", p.Attributes, a)
		}
	}
	pos, err := modeler.ReadPosition(doc, doc.Accessors[a[gltflib.POSITION]], nil)
	if err != nil {
		t.Fatal(err)
	}
	jts, err := modeler.ReadJoints(doc, doc.Accessors[a[gltflib.JOINTS_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	wts, err := modeler.ReadWeights(doc, doc.Accessors[a[gltflib.WEIGHTS_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pos) != n+len(st.Copies) {
		t.Fatalf("rig.glb holds %d vertices; the state says %d + %d copies", len(pos), n, len(st.Copies))
	}
	for v := range n {
		p := r.Mesh.Verts[v]
		if pos[v] != [3]float32{float32(p[0]), float32(p[1]), float32(p[2])} {
			t.Fatalf("glTF vertex %d at %v is not rig vertex %d at %v", v, pos[v], v, p)
		}
	}
	for k, v := range st.Copies {
		w := n + k
		if v < 0 || v >= n || pos[w] != pos[v] || jts[w] != jts[v] || wts[w] != wts[v] {
			t.Fatalf("glTF vertex %d (%v %v %v) is listed as a copy of rig vertex %d", w, pos[w], jts[w], wts[w], v)
		}
	}
	// Every copied vertex lies on the cut: used by both parts.
	used := [2][]bool{make([]bool, n), make([]bool, n)}
	for t, tri := range r.Mesh.Tris {
		for _, v := range tri {
			used[r.Mesh.Surface.TriPart[t]][v] = true
		}
	}
	for _, v := range st.Copies {
		if !used[0][v] || !used[1][v] {
			t.Fatalf("rig vertex %d is copied but not on the cut between the parts", v)
		}
	}
	t.Logf("%d rig vertices, %d copies at the cut, 2 primitives sharing one vertex array", n, len(st.Copies))
	// The JSON name is the contract's.
	var raw map[string]json.RawMessage
	json.Unmarshal(ts.ok("GET", "/api/state", "", 200), &raw)
	if _, ok := raw["copies"]; !ok {
		t.Error(`State JSON has no "copies"`)
	}
}
