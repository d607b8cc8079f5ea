package fbx

import (
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
)

// hierarchy is the Model tree with each node's rest transform.
type hierarchy struct {
	models  []*Object
	index   map[int64]int
	parent  []int // -1 under the scene root
	order   []int // parents before children
	rest    []Transform
	inherit []int
}

// channel names the animatable Lcl properties.
var channels = [3]string{"Lcl Translation", "Lcl Rotation", "Lcl Scaling"}

// newHierarchy reads every Model's transform and parent. A Model with two
// Model parents is refused; cycles were refused with the connections.
func newHierarchy(f *File) (*hierarchy, error) {
	h := &hierarchy{index: map[int64]int{}}
	for _, o := range f.Objects {
		if o.Class == "Model" {
			h.index[o.ID] = len(h.models)
			h.models = append(h.models, o)
		}
	}
	n := len(h.models)
	h.parent = make([]int, n)
	h.rest = make([]Transform, n)
	h.inherit = make([]int, n)
	children := make([][]int, n)
	var roots []int
	for i, o := range h.models {
		h.parent[i] = -1
		ps := f.parentsOf(o, "Model")
		if len(ps) > 1 {
			return nil, errAt(o.Node.Offset, "model %q has %d parent models", o.Name, len(ps))
		}
		if len(ps) == 1 {
			h.parent[i] = h.index[ps[0].ID]
			children[h.parent[i]] = append(children[h.parent[i]], i)
		} else {
			roots = append(roots, i)
		}
		var err error
		if h.rest[i], err = f.transform(o); err != nil {
			return nil, err
		}
		h.inherit[i] = f.inheritType(o)
	}
	h.order = roots
	for k := 0; k < len(h.order); k++ {
		h.order = append(h.order, children[h.order[k]]...)
	}
	return h, nil
}

// globals returns every model's global transform for the local
// transforms x (Lcl values already set for the time wanted).
func (h *hierarchy) globals(x []Transform, out []linalg.Affine) []linalg.Affine {
	if len(out) < len(x) {
		out = make([]linalg.Affine, len(x))
	}
	for _, i := range h.order {
		m := x[i].Local()
		if p := h.parent[i]; p >= 0 {
			pg := out[p]
			if h.inherit[i] == 2 {
				// Rrs: the parent's own scaling is not inherited.
				s := x[p].Scaling
				if s[0] != 0 && s[1] != 0 && s[2] != 0 {
					inv := linalg.Affine{M: linalg.Mat3{{1 / s[0], 0, 0}, {0, 1 / s[1], 0}, {0, 0, 1 / s[2]}}}
					pg = pg.Mul(x[p].scalePivotFree(inv))
				}
			}
			m = pg.Mul(m)
		}
		out[i] = m
	}
	return out
}

// scalePivotFree returns m placed where the node's scaling acts: after the
// scaling pivot, so removing the scale leaves pivots in place.
func (x *Transform) scalePivotFree(m linalg.Affine) linalg.Affine {
	if x.ScalingPivot == (linalg.Vec3{}) {
		return m
	}
	return linalg.Translation(x.ScalingPivot).Mul(m).Mul(linalg.Translation(x.ScalingPivot.Scale(-1)))
}

// anim is one animation stack bound to the hierarchy: per model and Lcl
// channel, three curves (nil where a component keeps its value).
type anim struct {
	name   string
	offset int64                 // the AnimationStack record's
	curves map[int]*[3][3]*Curve // model → channel → component
	// first and last are the earliest and latest key times.
	first, last int64
	seen        bool
	// step is the spacing of the keys when every key of every curve falls
	// on one even grid from first to last (within a tick); 0 otherwise.
	step int64
}

// readStacks returns the stacks that animate some model's Lcl
// translation, rotation or scaling. Of several layers, the first in the
// stack to animate a property supplies it: layer weights and blend modes
// are not applied.
func readStacks(f *File, h *hierarchy) ([]*anim, error) {
	var out []*anim
	cache := map[int64]*Curve{}
	for _, st := range f.Objects {
		if st.Class != "AnimationStack" {
			continue
		}
		a := &anim{name: st.Name, offset: st.Node.Offset, curves: map[int]*[3][3]*Curve{}}
		for _, layer := range f.childrenOf(st, "AnimationLayer") {
			for _, cn := range f.childrenOf(layer, "AnimationCurveNode") {
				for _, pc := range cn.Parents {
					mi, ok := h.index[pc.Parent]
					if pc.Kind != "OP" || !ok {
						continue
					}
					ch := -1
					for k, name := range channels {
						if pc.Property == name {
							ch = k
						}
					}
					if ch < 0 {
						continue
					}
					slot := a.curves[mi]
					if slot == nil {
						slot = &[3][3]*Curve{}
						a.curves[mi] = slot
					}
					if slot[ch] != [3]*Curve{} {
						continue // an earlier layer has it
					}
					for _, cc := range cn.Children {
						comp := map[string]int{"d|X": 0, "d|Y": 1, "d|Z": 2}
						k, ok := comp[cc.Property]
						curve := f.Object(cc.Child)
						if cc.Kind != "OP" || !ok || curve.Class != "AnimationCurve" {
							continue
						}
						c := cache[curve.ID]
						if c == nil {
							var err error
							if c, err = readCurve(curve); err != nil {
								return nil, err
							}
							cache[curve.ID] = c
						}
						if len(c.Times) == 0 {
							continue
						}
						slot[ch][k] = c
						if !a.seen {
							a.first, a.last, a.seen = c.Times[0], c.Times[len(c.Times)-1], true
						}
						a.first = min(a.first, c.Times[0])
						a.last = max(a.last, c.Times[len(c.Times)-1])
					}
				}
			}
		}
		if a.seen {
			a.step = evenStep(a)
			out = append(out, a)
		}
	}
	return out, nil
}

// at writes into x every model's transform at time t (ticks): the rest
// transform with the animated components replaced.
func (a *anim) at(h *hierarchy, t int64, x []Transform) {
	copy(x, h.rest)
	for mi, slot := range a.curves {
		dst := [3]*linalg.Vec3{&x[mi].Translation, &x[mi].Rotation, &x[mi].Scaling}
		for ch, comps := range slot {
			for k, c := range comps {
				if c != nil {
					dst[ch][k] = c.Eval(t)
				}
			}
		}
	}
}

// evenStep returns the spacing of a's keys when they all lie on one even
// grid from a.first to a.last whose every point is some curve's key (so
// sampling at it hits exactly the keys), within a tick of rounding; else 0.
func evenStep(a *anim) int64 {
	var times []int64
	for _, slot := range a.curves {
		for _, ch := range slot {
			for _, c := range ch {
				if c != nil {
					times = append(times, c.Times...)
				}
			}
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	u := times[:0]
	for _, t := range times {
		if len(u) == 0 || t-u[len(u)-1] > 1 {
			u = append(u, t)
		}
	}
	if len(u) < 2 {
		return 0
	}
	n := int64(len(u) - 1)
	step := (u[n] - u[0]) / n
	for k, t := range u {
		if d := t - (u[0] + int64(math.Round(float64(u[n]-u[0])*float64(k)/float64(n)))); d < -1 || d > 1 {
			return 0
		}
	}
	return step
}
