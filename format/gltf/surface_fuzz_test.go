package gltf

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// surfaceFromBytes gives m a surface drawn from data: a UV set per corner
// whose indices and values come from the bytes (seams wherever two
// corners of a vertex differ), a colour per vertex, and up to three parts
// (triangle t in part data[t] mod parts), the first with a material.
func surfaceFromBytes(m *mesh.Mesh, data []byte) {
	at := func(i int) byte {
		if len(data) == 0 {
			return 0
		}
		return data[i%len(data)]
	}
	nv := 1 + int(at(0))%8
	uv := mesh.Attr[[2]float32]{Values: make([][2]float32, nv), Index: make([]int32, 3*len(m.Tris))}
	for k := range uv.Values {
		uv.Values[k] = [2]float32{float32(at(2*k+1)) / 255, float32(at(2*k+2)) / 16}
	}
	for c := range uv.Index {
		uv.Index[c] = int32(int(at(c+17)) % nv)
	}
	col := mesh.Attr[[4]float32]{Values: make([][4]float32, len(m.Verts))}
	for i := range col.Values {
		col.Values[i] = [4]float32{float32(at(i)) / 255, 0.5, 1, 1}
	}
	parts := 1 + int(at(3))%3
	s := &mesh.Surface{
		UVs:       []mesh.Attr[[2]float32]{uv},
		Colors:    []mesh.Attr[[4]float32]{col},
		Materials: []mesh.Material{mesh.NewMaterial("m")},
	}
	for p := 0; p < parts; p++ {
		s.Parts = append(s.Parts, mesh.Part{Material: -1})
	}
	s.Parts[0].Material = 0
	if parts > 1 {
		s.TriPart = make([]int32, len(m.Tris))
		for t := range s.TriPart {
			s.TriPart[t] = int32(int(at(t+5)) % parts)
		}
	}
	m.Surface = s
}

// FuzzWriteSurface writes a tube with a fuzzed surface and reads it back:
// the mesh's vertices come first in order, every triangle corner keeps its
// position, UV and colour, every triangle its part, and the parts their
// materials.
func FuzzWriteSurface(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{3, 10, 20, 2, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200})
	f.Add(bytes.Repeat([]byte{7, 255, 1}, 40))
	r := testrig.Tube(f, 2, linalg.Vec3{})
	r.Clips = nil
	f.Fuzz(func(t *testing.T, data []byte) {
		rr := *r
		rr.Mesh = r.Mesh.Clone()
		surfaceFromBytes(rr.Mesh, data)
		m := rr.Mesh
		if err := m.Validate(); err != nil {
			t.Fatalf("fuzz surface invalid: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, &rr, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		sc, err := ReadScene(fstest.MapFS{"s.glb": {Data: buf.Bytes()}}, "s.glb", format.SceneOptions{})
		if err != nil {
			t.Fatalf("written file refused: %v", err)
		}
		b, s, bs := sc.Mesh, m.Surface, sc.Mesh.Surface
		if len(b.Tris) != len(m.Tris) || len(b.Verts) < len(m.Verts) || len(b.Verts) > 3*len(m.Tris)+len(m.Verts) {
			t.Fatalf("%d vertices %d triangles back, %d %d written", len(b.Verts), len(b.Tris), len(m.Verts), len(m.Tris))
		}
		for i, v := range m.Verts {
			if b.Verts[i].Dist(v) > 1e-5 {
				t.Fatalf("vertex %d moved", i)
			}
		}
		// Written triangles are grouped by part, in part order (a part
		// without triangles is left out): match them so.
		order := make([][]int, len(s.Parts))
		for tr := range m.Tris {
			p := s.Part(tr)
			order[p] = append(order[p], tr)
		}
		k := 0
		for p := range order {
			for _, tr := range order[p] {
				tb := k
				k++
				for c := 0; c < 3; c++ {
					v, w := m.Tris[tr][c], b.Tris[tb][c]
					if b.Verts[w].Dist(m.Verts[v]) > 1e-5 {
						t.Fatalf("triangle %d corner %d: at %v, want %v", tr, c, b.Verts[w], m.Verts[v])
					}
					if got, want := bs.UVs[0].Values[w], s.UVs[0].At(tr, c, v); got != want {
						t.Fatalf("triangle %d corner %d: UV %v, want %v", tr, c, got, want)
					}
					if got, want := bs.Colors[0].Values[w], s.Colors[0].Values[v]; got != want {
						t.Fatalf("triangle %d corner %d: colour %v, want %v", tr, c, got, want)
					}
				}
				if got, want := bs.Parts[bs.Part(tb)].Material, s.Parts[p].Material; got != want {
					t.Fatalf("triangle %d: material %d, want %d", tr, got, want)
				}
			}
		}
	})
}
