package ledeng

import (
	"fmt"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/weld"
	"github.com/meshrig/meshrig/seq"
)

// weldModel returns the problem the method works on: full itself (with
// the input's topology) when no seam is to be welded, else the model of
// the welded mesh (method/weld), so a mesh cut along seams is one surface
// for the patches (§4) and the rigidness Laplacian (§6.1). The weld is
// nil in the first case.
func weldModel(s *seq.Sequence, full *skinning.Model, notes method.Notes) (*problem, *weld.Result) {
	w := weld.Seams(full.Rest, full.Frames, s.Rest.Tris, full.F, weld.Tolerance, weld.Tear)
	if w.Merged() == 0 {
		// Unchanged from an unwelded run: the input's own triangles
		// (welding would only drop those with a repeated corner).
		full.Top = mesh.NewTopology(s.Rest)
		return &problem{full}, nil
	}
	notes.Add(fmt.Sprintf("ledeng: %d vertices welded to coincident ones (seams) for patches and smoothness", w.Merged()))
	return &problem{&skinning.Model{N: len(w.Rest), F: full.F, Rest: w.Rest, Frames: w.Frames,
		Top: mesh.NewTopology(&mesh.Mesh{Verts: w.Rest, Tris: w.Tris})}}, &w
}

// spread returns the model of the input's vertices with p's bones,
// transforms and weights, every vertex taking its welded vertex's
// weights: p's own model when nothing was welded (w nil).
func (p *problem) spread(full *skinning.Model, w *weld.Result) *skinning.Model {
	if w == nil {
		return p.Model
	}
	full.B, full.M = p.B, p.M
	full.WB = weld.Spread(w, p.WB, skinning.MaxK)
	full.WW = weld.Spread(w, p.WW, skinning.MaxK)
	return full
}
