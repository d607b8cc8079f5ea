package skinning

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/weld"
	"github.com/meshrig/meshrig/seq"
)

// WeldSeams returns the model a method works on for full, the model of
// s's vertices (unit-sphere units, no topology yet), so that a mesh cut
// along texture or normal seams is one surface for every step that
// follows the triangles. When weld.Seams merges nothing it is full
// itself with s's own topology, s.Rest and a nil weld (the input's
// triangles stay, even those with a repeated corner); otherwise the
// model of the welded mesh, that mesh in s's units (each welded vertex
// where its first copy is) and the weld. When full is a View the welded
// model is one too, reading the same frames through the first copies.
func WeldSeams(s *seq.Sequence, full *Model) (*Model, *mesh.Mesh, *weld.Result) {
	w := weld.SeamsOf(full.Rest, full.Pos, s.Rest.Tris, full.F, weld.Tolerance, weld.Tear)
	if w.Merged() == 0 {
		full.Top = mesh.NewTopology(s.Rest)
		return full, s.Rest, nil
	}
	rest := &mesh.Mesh{Verts: make([]linalg.Vec3, len(w.First)), Tris: w.Tris}
	for v, i := range w.First {
		rest.Verts[v] = s.Rest.Verts[i]
	}
	m := &Model{N: len(w.Rest), F: full.F, Rest: w.Rest, Top: mesh.NewTopology(rest)}
	if src := full.src; src != nil {
		// A View of full's source through the first copies.
		of := w.First
		if src.of != nil {
			of = make([]int32, len(w.First))
			for v, i := range w.First {
				of[v] = src.of[i]
			}
		}
		m.src = &frameSource{pos: src.pos, n: src.n, of: of, us: src.us}
	} else {
		m.Frames = make([]linalg.Vec3, full.F*m.N)
		for v, i := range w.First {
			for f := 0; f < full.F; f++ {
				m.Frames[f*m.N+v] = full.Frames[f*full.N+int(i)]
			}
		}
	}
	return m, rest, &w
}

// Spread carries m's bones, transforms and weights to full, the model of
// the input's vertices, each vertex taking its welded vertex's weights,
// and returns full; with no weld (w nil) m is the input's model and is
// returned as it is.
func Spread(m, full *Model, w *weld.Result) *Model {
	if w == nil {
		return m
	}
	full.B, full.M = m.B, m.M
	full.WB = weld.Spread(w, m.WB, MaxK)
	full.WW = weld.Spread(w, m.WW, MaxK)
	return full
}
