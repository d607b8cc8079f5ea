package skinweights

import (
	"fmt"
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/rig"
)

// Scheme names a way to compute weights.
type Scheme string

// The schemes; the zero Scheme is Heat.
const (
	Rigid    Scheme = "rigid"
	Distance Scheme = "distance"
	Geodesic Scheme = "geodesic"
	Heat     Scheme = "heat"
)

// Schemes lists every scheme, the default first.
func Schemes() []Scheme { return []Scheme{Heat, Geodesic, Distance, Rigid} }

// ParseScheme returns the scheme named s ("" is Heat).
func ParseScheme(s string) (Scheme, error) {
	if s == "" {
		return Heat, nil
	}
	for _, k := range Schemes() {
		if string(k) == s {
			return k, nil
		}
	}
	names := make([]string, 0, 4)
	for _, k := range Schemes() {
		names = append(names, string(k))
	}
	return "", fmt.Errorf("unknown weight scheme %q (have %s)", s, strings.Join(names, ", "))
}

// Options controls Compute. The zero value gives the defaults.
type Options struct {
	// MaxInfluences is the most joints per vertex, 1 to 4. Default 4.
	// Rigid always uses one.
	MaxInfluences int
}

// Compute returns the skin of m bound to s: one influence per vertex of
// m, at most MaxInfluences joints (indices into s.Joints) with weights
// summing to one. The work happens in unit-sphere coordinates of m, so
// results do not depend on the model's scale or position. It fails on an
// invalid skeleton, non-finite positions, or (Heat only) a mesh with no
// triangles.
func Compute(m *mesh.Mesh, s *static.Skeleton, scheme Scheme, opt Options) (rig.Skin, error) {
	if m == nil || len(m.Verts) == 0 {
		return nil, fmt.Errorf("skin weights: the mesh has no vertices")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("skin weights: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("skin weights: %w", err)
	}
	for j, p := range s.Joints {
		if !p.IsFinite() {
			return nil, fmt.Errorf("skin weights: joint %d is not finite: %v", j, p)
		}
	}
	maxInf := opt.MaxInfluences
	if maxInf <= 0 || maxInf > rig.MaxInfluences {
		maxInf = rig.MaxInfluences
	}
	us := method.NewUnitSphere(m.Verts)
	pos := us.To(nil, m.Verts)
	joints := us.To(nil, s.Joints)
	switch scheme {
	case Rigid:
		return rigid(pos, bones(s, joints)), nil
	case Distance:
		return distance(pos, joints, maxInf), nil
	case Geodesic:
		return geodesic(m, pos, joints, maxInf), nil
	case Heat, "":
		if len(m.Tris) == 0 {
			return nil, fmt.Errorf("skin weights: heat needs triangles and the mesh has none")
		}
		hs, err := NewHeatSolver(pos, m.Tris)
		if err != nil {
			return nil, fmt.Errorf("skin weights: %w", err)
		}
		w, err := hs.Solve(pos, bones(s, joints), len(joints))
		if err != nil {
			return nil, fmt.Errorf("skin weights: %w", err)
		}
		return rig.FromDense(w, len(pos), len(joints), maxInf), nil
	}
	_, err := ParseScheme(string(scheme))
	return nil, err
}

// nearest returns the index of the segment nearest p and its distance.
func nearest(segs []Segment, p linalg.Vec3) (int, float64) {
	best, bd := 0, segs[0].Dist(p)
	for k := 1; k < len(segs); k++ {
		if d := segs[k].Dist(p); d < bd {
			best, bd = k, d
		}
	}
	return best, bd
}
