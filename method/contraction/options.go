package contraction

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/method"
)

// Options controls Skeleton. The zero value gives the defaults; lengths
// are in unit-sphere units (the mesh scaled so its vertices fit in a
// sphere of radius 1 around the bounding-box centre), so the defaults mean
// the same for every model size.
type Options struct {
	// Joints is the number of joints wanted (the Laplacian-contraction
	// paper's control points, §5: default 24). Edge collapses stop there,
	// and method/skeletonshape brings the shaped skeleton back to it.
	// A loop of the shape (a torus) keeps at least three joints, so a
	// mesh with many holes may keep more; a contracted mesh that
	// collapses to fewer nodes gets the missing joints at the middle of
	// its longest bones (Notes say so).
	//
	// It may not exceed MaxVertices, nor the vertex count of the mesh
	// graph the method works on (the welded mesh, subdivided or
	// simplified into [MinVertices, MaxVertices]): every joint is the
	// centre of a region of that graph, the graph vertices collapsed into
	// it, so the graph can carry no more, and joints asked for beyond
	// that would all be bone midpoints standing for no surface.
	Joints int
	// ContractionScale is s_L, the factor the contraction weight W_L
	// grows by each iteration (Au et al. 2008 §3: 2). Default 2; it must
	// lie in (1, 16].
	ContractionScale float64
	// ContractionWeight scales the initial contraction weight
	// W_L⁰ = 1/(10·√Ā), Ā the mean face area in unit-sphere units (the
	// value of Au et al.'s implementation; the paper prints 10⁻³·√Ā).
	// Default 1; larger values contract faster and keep less detail.
	ContractionWeight float64
	// AttractionWeight is W_H⁰, the initial weight holding each vertex
	// where it is (Au et al. 2008 §3: 1). Default 1.
	AttractionWeight float64
	// Stop ends the contraction once the enclosed volume has shrunk to
	// this fraction of the original (Au et al. 2008 §3 run to 10⁻⁶).
	// Default 10⁻³: tubes are curves by then (a capsule's skeleton lies
	// on its axis), and further iterations mostly shorten limbs and fold
	// needle-thin triangles. It must lie in (0, 1).
	Stop float64
	// MaxIterations caps the contraction iterations. Default 20.
	MaxIterations int
	// Merge is the length below which edges of the contracted mesh are
	// collapsed before any cost is computed (the Collada paper's "very
	// close vertices are merged", §5.1). Default 0.002.
	Merge float64
	// Split removes spurious edges (the Collada paper's splitting, §3.1):
	// an edge longer than Split times the median edge length at both its
	// ends is taken for a bridge between parts that should not touch, and
	// the faces using it are left out. Default 10; negative disables it.
	Split float64
	// ShapeWeight and SamplingWeight weigh the QEM shape cost and the
	// sampling cost of an edge collapse (Au et al. 2008 §4: 1 and 0.1).
	ShapeWeight, SamplingWeight float64
	// MaxVertices bounds the mesh the contraction works on: a denser one
	// is first simplified to this many vertices by QEM edge collapses
	// (joints are still centred in the full mesh). Default 6000; at least
	// 500.
	MaxVertices int
	// MinVertices is the sampling below which the mesh is subdivided (each
	// triangle into four, while it stays within MaxVertices), so a
	// low-polygon model contracts smoothly and leaves enough nodes for the
	// joints. Default 3000; negative disables it.
	MinVertices int
	// Raw returns the curve skeleton as the contraction finds it, without
	// method/skeletonshape (symmetry, torso root, stars split).
	Raw bool
	// NoSymmetry skips making the skeleton symmetric about the mesh's
	// mirror plane (skeletonshape.Options.NoSymmetry).
	NoSymmetry bool
	// Detail keeps detail branches (ears, horns, bumps) that
	// skeletonshape.FoldDetail would fold into their parent.
	Detail bool
	// Progress and Notes may be nil.
	Progress method.Progress
	Notes    method.Notes
}

func (o Options) withDefaults() (Options, error) {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	if o.Joints == 0 {
		o.Joints = 24
	}
	def(&o.ContractionScale, 2)
	def(&o.ContractionWeight, 1)
	def(&o.AttractionWeight, 1)
	def(&o.Stop, 1e-3)
	def(&o.Merge, 0.002)
	def(&o.Split, 10)
	def(&o.ShapeWeight, 1)
	def(&o.SamplingWeight, 0.1)
	if o.MaxIterations == 0 {
		o.MaxIterations = 20
	}
	if o.MaxVertices == 0 {
		o.MaxVertices = 6000
	}
	if o.MinVertices == 0 {
		o.MinVertices = 3000
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	switch {
	case o.Joints < 1:
		return o, fmt.Errorf("contraction: %d joints asked for, need at least 1", o.Joints)
	case bad(o.ContractionScale) || o.ContractionScale <= 1 || o.ContractionScale > 16:
		return o, fmt.Errorf("contraction: contraction scale s_L = %g is outside (1, 16]", o.ContractionScale)
	case bad(o.ContractionWeight) || o.ContractionWeight <= 0:
		return o, fmt.Errorf("contraction: contraction weight %g must be positive", o.ContractionWeight)
	case bad(o.AttractionWeight) || o.AttractionWeight <= 0:
		return o, fmt.Errorf("contraction: attraction weight %g must be positive", o.AttractionWeight)
	case bad(o.Stop) || o.Stop <= 0 || o.Stop >= 1:
		return o, fmt.Errorf("contraction: stop ratio %g is outside (0, 1)", o.Stop)
	case o.MaxIterations < 1 || o.MaxIterations > 100:
		return o, fmt.Errorf("contraction: %d iterations is outside [1, 100]", o.MaxIterations)
	case bad(o.Merge) || o.Merge < 0:
		return o, fmt.Errorf("contraction: merge length %g must not be negative", o.Merge)
	case bad(o.Split):
		return o, fmt.Errorf("contraction: split factor %g is not a number", o.Split)
	case o.Split > 0 && o.Split < 2:
		return o, fmt.Errorf("contraction: split factor %g would cut ordinary edges (use ≥ 2, or negative to disable)", o.Split)
	case bad(o.ShapeWeight) || o.ShapeWeight < 0 || bad(o.SamplingWeight) || o.SamplingWeight < 0 ||
		o.ShapeWeight+o.SamplingWeight == 0:
		return o, fmt.Errorf("contraction: cost weights %g, %g must be non-negative and not both zero", o.ShapeWeight, o.SamplingWeight)
	case o.MaxVertices < 500:
		return o, fmt.Errorf("contraction: MaxVertices %d is below 500", o.MaxVertices)
	case o.Joints > o.MaxVertices:
		return o, fmt.Errorf("contraction: %d joints asked for, more than the %d vertices the mesh graph is simplified to (MaxVertices); ask for at most %d", o.Joints, o.MaxVertices, o.MaxVertices)
	}
	return o, nil
}
