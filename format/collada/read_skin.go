package collada

import (
	"slices"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// skinData is a <skin> controller as read.
type skinData struct {
	ctrl, geom *elem
	// bindShape places the geometry's positions in the bind pose.
	bindShape linalg.Affine
	// names are the skin's joints: node SIDs (a Name_array) or node IDs
	// (an IDREF_array, byID), each with its inverse bind matrix.
	names    []string
	byID     bool
	ibm      []linalg.Affine
	jointsEl *elem
	// Vertex i's influences are joint[start[i]:start[i+1]] with their
	// weights: positive, one per joint, summing to 1.
	start  []int
	joint  []int
	weight []float64
}

// skinOf reads a controller's skin: the geometry it skins, its bind shape
// matrix (the identity when absent), joints and inverse bind matrices.
// The weights come after the geometry (weightsOf).
func (d *doc) skinOf(ctrl *elem) (*skinData, error) {
	if ctrl.child("morph") != nil {
		return nil, ctrl.errorf("%w: morph controllers", format.ErrUnsupported)
	}
	sk := ctrl.child("skin")
	if sk == nil {
		return nil, ctrl.errorf("no <skin>")
	}
	s := &skinData{ctrl: ctrl, bindShape: linalg.IdentityAffine()}
	src, err := d.ref(sk, "source", sk.get("source"), "geometry", "controller")
	if err != nil {
		return nil, err
	}
	if src.name == "controller" {
		return nil, sk.errorf("skins controller %q: %w (a skin of a morph or of another skin)", sk.get("source"), format.ErrUnsupported)
	}
	s.geom = src
	if b := sk.child("bind_shape_matrix"); b != nil {
		v, err := d.numbersOf(b, 16)
		if err != nil {
			return nil, err
		}
		if s.bindShape, err = affineAt(b, v, 0); err != nil {
			return nil, err
		}
	}
	s.jointsEl = sk.child("joints")
	if s.jointsEl == nil {
		return nil, sk.errorf("no <joints>")
	}
	var jointURL, ibmURL string
	for _, in := range s.jointsEl.all("input") {
		switch in.get("semantic") {
		case "JOINT":
			jointURL = in.get("source")
		case "INV_BIND_MATRIX":
			ibmURL = in.get("source")
		}
	}
	if jointURL == "" || ibmURL == "" {
		return nil, s.jointsEl.errorf("want JOINT and INV_BIND_MATRIX inputs")
	}
	var arr string
	if s.names, arr, err = d.nameSource(s.jointsEl, "JOINT source", jointURL); err != nil {
		return nil, err
	}
	s.byID = arr == "IDREF_array"
	if len(s.names) == 0 {
		return nil, s.jointsEl.errorf("the skin has no joints")
	}
	v, nm, err := d.floatSource(s.jointsEl, "INV_BIND_MATRIX source", ibmURL, 16)
	if err != nil {
		return nil, err
	}
	if nm != len(s.names) {
		return nil, s.jointsEl.errorf("%s for %s", plural(nm, "inverse bind matrix"), plural(len(s.names), "joint"))
	}
	s.ibm = make([]linalg.Affine, nm)
	for k := range s.ibm {
		if s.ibm[k], err = affineAt(s.jointsEl, v, k); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// weightsOf reads the skin's <vertex_weights> for a geometry of n
// positions. A joint listed twice for a vertex adds up; weights that are
// not positive are dropped, and the rest normalized to sum to 1. A vertex
// with no weight left is refused: tools disagree on where it goes (the
// specification's formula sends it to the origin; Blender keeps it in
// place).
func (d *doc) weightsOf(s *skinData, n int) error {
	sk := s.ctrl.child("skin")
	vw := sk.child("vertex_weights")
	if vw == nil {
		return sk.errorf("no <vertex_weights>")
	}
	nv, err := countAttr(vw, "count", -1)
	if err != nil {
		return err
	}
	if nv != n {
		return vw.errorf("weights for %s, the geometry has %s", plural(nv, "vertex"), plural(n, "position"))
	}
	stride, joff, woff := 0, -1, -1
	var weightURL string
	for _, in := range vw.all("input") {
		off, err := countAttr(in, "offset", -1)
		if err != nil {
			return err
		}
		stride = max(stride, off+1)
		switch in.get("semantic") {
		case "JOINT":
			names, _, err := d.nameSource(in, "JOINT source", in.get("source"))
			if err != nil {
				return err
			}
			if !slices.Equal(names, s.names) {
				return in.errorf("JOINT source %q does not list the joints of <joints> (line %d)", in.get("source"), s.jointsEl.line)
			}
			joff = off
		case "WEIGHT":
			weightURL, woff = in.get("source"), off
		}
	}
	if joff < 0 || woff < 0 {
		return vw.errorf("want JOINT and WEIGHT inputs")
	}
	weights, _, err := d.floatSource(vw, "WEIGHT source", weightURL, 1)
	if err != nil {
		return err
	}
	vc, ve := vw.child("vcount"), vw.child("v")
	if n > 0 && (vc == nil || ve == nil) {
		return vw.errorf("no <vcount> and <v>")
	}
	if n == 0 {
		s.start = []int{0}
		return nil
	}
	counts, err := d.intsOf(vc, n)
	if err != nil {
		return err
	}
	total, sum := countFields(ve.text)/stride, 0
	for i, c := range counts {
		if c < 0 {
			return vc.errorf("vertex %d: %d influences", i+1, c)
		}
		if sum += c; sum > total {
			return ve.errorf("holds %d indices, too few for the influences of <vcount> (%d inputs each)", countFields(ve.text), stride)
		}
	}
	v, err := d.intsOf(ve, sum*stride)
	if err != nil {
		return err
	}
	s.start = make([]int, 1, n+1)
	s.joint = make([]int, 0, sum)
	s.weight = make([]float64, 0, sum)
	at := 0
	for i, c := range counts {
		first := len(s.joint)
		for k := 0; k < c; k, at = k+1, at+stride {
			j, wi := v[at+joff], v[at+woff]
			if j == -1 {
				return ve.errorf("vertex %d: joint index -1 (the bind shape itself): %w", i+1, format.ErrUnsupported)
			}
			if j < 0 || j >= len(s.names) || wi < 0 || wi >= len(weights) {
				return ve.errorf("vertex %d: joint %d or weight %d out of range (%s, %s)", i+1, j, wi, plural(len(s.names), "joint"), plural(len(weights), "weight"))
			}
			w := weights[wi]
			if w <= 0 {
				continue
			}
			merged := false
			for r := first; r < len(s.joint); r++ {
				if s.joint[r] == j {
					s.weight[r] += w
					merged = true
				}
			}
			if !merged {
				s.joint, s.weight = append(s.joint, j), append(s.weight, w)
			}
		}
		var total float64
		for _, w := range s.weight[first:] {
			total += w
		}
		if !(total > 0) || total > 1e300 {
			return ve.errorf("vertex %d has no usable joint weight: %w (tools disagree on where such a vertex goes)", i+1, format.ErrUnsupported)
		}
		for r := first; r < len(s.weight); r++ {
			s.weight[r] /= total
		}
		s.start = append(s.start, len(s.joint))
	}
	return nil
}
