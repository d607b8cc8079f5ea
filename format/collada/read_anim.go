package collada

import (
	"sort"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// animChannel animates values [off, off+n) of transform element xf of a
// node, by a sampler's keys: n values per key, and per key whether the
// curve steps (STEP) or runs straight (LINEAR) to the next.
type animChannel struct {
	el          *elem
	node, xf    int
	off, n      int
	times, vals []float64
	step        []bool
}

// members are the named parts of transform elements a target may select.
var members = map[string]map[string]int{
	"translate": {"X": 0, "Y": 1, "Z": 2},
	"scale":     {"X": 0, "Y": 1, "Z": 2},
	"rotate":    {"X": 0, "Y": 1, "Z": 2, "ANGLE": 3},
}

// channelsOf appends the channels of an <animation> and of the
// animations nested in it. A channel whose target is not a node of the
// visual scene (a material, a camera) does not move the mesh and is left
// out.
func (d *doc) channelsOf(a *elem, sc *sceneData, out []*animChannel) ([]*animChannel, error) {
	for _, k := range a.kids {
		var err error
		switch k.name {
		case "animation":
			out, err = d.channelsOf(k, sc, out)
		case "channel":
			var c *animChannel
			if c, err = d.channelOf(k, sc); c != nil {
				out = append(out, c)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// channelOf reads one <channel> and its sampler; nil when it targets no
// node.
func (d *doc) channelOf(ch *elem, sc *sceneData) (*animChannel, error) {
	target := ch.get("target")
	id, path, _ := strings.Cut(target, "/")
	node, ok := sc.byID[id]
	if !ok {
		return nil, nil
	}
	if strings.Contains(path, "/") {
		return nil, ch.errorf("target %q: %w (SIDs nested below a node's transforms)", target, format.ErrUnsupported)
	}
	sid, member := path, ""
	if i := strings.IndexAny(path, ".("); i >= 0 {
		sid, member = path[:i], path[i:]
	}
	c := &animChannel{el: ch, node: node, xf: -1}
	for i, x := range sc.nodes[node].xf {
		if x.el.get("sid") == sid {
			c.xf = i
		}
	}
	if c.xf < 0 {
		return nil, ch.errorf("target %q: node %q has no transform with sid %q", target, id, sid)
	}
	kind := sc.nodes[node].xf[c.xf].el.name
	c.n = width[kind]
	if member != "" {
		var ok bool
		if name, isName := strings.CutPrefix(member, "."); isName {
			c.off, ok = members[kind][name]
		} else if i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(member, "("), ")")); err == nil && kind != "matrix" && strings.HasSuffix(member, ")") {
			c.off, ok = i, i >= 0 && i < c.n
		}
		if !ok {
			return nil, ch.errorf("target %q: %w member %q of a <%s>", target, format.ErrUnsupported, member, kind)
		}
		c.n = 1
	}
	return c, d.samplerOf(c, ch)
}

// samplerOf reads the keys of a channel's <sampler>: times that never
// decrease, values (whole matrices must stay affine), and LINEAR or STEP
// interpolation (LINEAR when the sampler names none).
func (d *doc) samplerOf(c *animChannel, ch *elem) error {
	s, err := d.ref(ch, "source", ch.get("source"), "sampler")
	if err != nil {
		return err
	}
	var inURL, outURL, interpURL string
	for _, in := range s.all("input") {
		switch in.get("semantic") {
		case "INPUT":
			inURL = in.get("source")
		case "OUTPUT":
			outURL = in.get("source")
		case "INTERPOLATION":
			interpURL = in.get("source")
		}
	}
	if inURL == "" || outURL == "" {
		return s.errorf("want INPUT and OUTPUT inputs")
	}
	var nt, nv int
	if c.times, nt, err = d.floatSource(s, "INPUT source", inURL, 1); err != nil {
		return err
	}
	if c.vals, nv, err = d.floatSource(s, "OUTPUT source", outURL, c.n); err != nil {
		return err
	}
	if nt == 0 || nv != nt {
		return s.errorf("%s for %s", plural(nv, "value"), plural(nt, "key time"))
	}
	for k := 1; k < nt; k++ {
		if c.times[k] < c.times[k-1] {
			return s.errorf("key %d at %g s comes before key %d at %g s", k+1, c.times[k], k, c.times[k-1])
		}
	}
	if c.n == 16 {
		for k := 0; k < nt; k++ {
			if _, err := affineAt(s, c.vals, k); err != nil {
				return err
			}
		}
	}
	c.step = make([]bool, nt)
	if interpURL == "" {
		return nil
	}
	names, _, err := d.nameSource(s, "INTERPOLATION source", interpURL)
	if err != nil {
		return err
	}
	if len(names) != nt {
		return s.errorf("%s for %s", plural(len(names), "interpolation"), plural(nt, "key"))
	}
	for k, name := range names[:nt-1] { // the last key leads nowhere
		switch name {
		case "LINEAR":
		case "STEP":
			c.step[k] = true
		case "BEZIER", "HERMITE", "BSPLINE", "CARDINAL":
			return s.errorf("key %d: %w %s interpolation (sample the animation, LINEAR)", k+1, format.ErrUnsupported, name)
		default:
			return s.errorf("key %d: unknown interpolation %q", k+1, name)
		}
	}
	return nil
}

// at writes the channel's n values at time t into dst: held before the
// first key and after the last, else between the keys around t. Whole
// matrices are interpolated as rotation (slerp), stretch and translation,
// as importers do, so rigid keys give rigid frames; at a key, every
// value is the key's own.
func (c *animChannel) at(t float64, dst []float64) {
	nt := len(c.times)
	k := sort.Search(nt, func(i int) bool { return c.times[i] > t }) - 1
	switch {
	case k < 0:
		copy(dst, c.vals[:c.n])
		return
	case k >= nt-1 || c.step[k] || c.times[k+1] == c.times[k] || t == c.times[k]:
		copy(dst, c.vals[k*c.n:(k+1)*c.n])
		return
	}
	u := (t - c.times[k]) / (c.times[k+1] - c.times[k])
	a, b := c.vals[k*c.n:(k+1)*c.n], c.vals[(k+1)*c.n:(k+2)*c.n]
	if c.n != 16 {
		for i := range dst[:c.n] {
			dst[i] = a[i] + u*(b[i]-a[i])
		}
		return
	}
	ma, mb := xformAffine("matrix", a), xformAffine("matrix", b)
	qa, qb := linalg.BestRotation(ma.M), linalg.BestRotation(mb.M)
	sa, sb := qa.Mat3().T().Mul(ma.M), qb.Mat3().T().Mul(mb.M)
	m := linalg.Affine{
		M: linalg.Slerp(qa, qb, u).Mat3().Mul(sa.Add(sb.Sub(sa).Scale(u))),
		T: ma.T.Lerp(mb.T, u),
	}
	for r := 0; r < 3; r++ {
		dst[4*r], dst[4*r+1], dst[4*r+2], dst[4*r+3] = m.M[r][0], m.M[r][1], m.M[r][2], m.T[r]
	}
	dst[12], dst[13], dst[14], dst[15] = 0, 0, 0, 1
}
