package schaefer

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/weld"
	"github.com/meshrig/meshrig/seq"
)

// weldModel returns the model and rest mesh (model units) the method
// works on: full itself and s.Rest when no seam is to be welded, else
// those of the welded mesh (method/weld), so a mesh cut along seams is one
// surface for face adjacency (§3) and influence maps (§4). The weld is nil
// in the first case.
func weldModel(s *seq.Sequence, full *skinning.Model, notes method.Notes) (*skinning.Model, *mesh.Mesh, *weld.Result) {
	w := weld.Seams(full.Rest, full.Frames, s.Rest.Tris, full.F, weld.Tolerance, weld.Tear)
	if w.Merged() == 0 {
		// Unchanged from an unwelded run: the input's own triangles
		// (welding would only drop those with a repeated corner).
		full.Top = mesh.NewTopology(s.Rest)
		return full, s.Rest, nil
	}
	notes.Add(fmt.Sprintf("face-clustering: %d vertices welded to coincident ones (seams) for face adjacency and influence maps", w.Merged()))
	rest := &mesh.Mesh{Verts: make([]linalg.Vec3, len(w.First)), Tris: w.Tris}
	for v, i := range w.First {
		rest.Verts[v] = s.Rest.Verts[i]
	}
	m := &skinning.Model{N: len(w.Rest), F: full.F, Rest: w.Rest, Frames: w.Frames, Top: mesh.NewTopology(rest)}
	return m, rest, &w
}

// spread returns the model of the input's vertices with m's bones,
// transforms and weights, every vertex taking its welded vertex's
// weights: m itself when nothing was welded (w nil).
func spread(m, full *skinning.Model, w *weld.Result) *skinning.Model {
	if w == nil {
		return m
	}
	full.B, full.M = m.B, m.M
	full.WB = weld.Spread(w, m.WB, skinning.MaxK)
	full.WW = weld.Spread(w, m.WW, skinning.MaxK)
	return full
}
