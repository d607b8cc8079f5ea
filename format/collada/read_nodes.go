package collada

import (
	"math"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// sceneNode is a <node> of the visual scene. Nodes are listed in document
// order, so a parent comes before its children.
type sceneNode struct {
	el     *elem
	parent int // -1 at the scene's top level
	xf     []xform
}

// xform is one transform element of a node, with its values as stored:
// 16 for a matrix (row-major), 3 for translate and scale, 4 for rotate
// (axis, then the angle in degrees).
type xform struct {
	el  *elem
	val []float64
}

// width is how many values each transform element holds.
var width = map[string]int{"matrix": 16, "translate": 3, "rotate": 4, "scale": 3}

// sceneData is the node tree of the visual scene and its one skinned mesh.
type sceneData struct {
	nodes []sceneNode
	byID  map[string]int
	// inst is the <instance_controller>, roots its <skeleton> nodes.
	inst  *elem
	roots []int
}

// visualScene returns the visual scene <scene> instances, or the only one.
func (d *doc) visualScene() (*elem, error) {
	if sc := d.root.child("scene"); sc != nil {
		if in := sc.child("instance_visual_scene"); in != nil {
			return d.ref(in, "url", in.get("url"), "visual_scene")
		}
	}
	all := d.library("library_visual_scenes", "visual_scene")
	if len(all) != 1 {
		return nil, d.root.errorf("no <scene><instance_visual_scene>, and %s", plural(len(all), "visual scene"))
	}
	return all[0], nil
}

// sceneOf reads the node tree. It refuses what would move the mesh in
// ways a rig cannot hold: a second skinned mesh, unskinned geometry,
// nodes instanced from a library, lookat and skew transforms.
func (d *doc) sceneOf(vs *elem) (*sceneData, error) {
	sc := &sceneData{byID: map[string]int{}}
	var walk func(e *elem, parent int) error
	walk = func(e *elem, parent int) error {
		k := len(sc.nodes)
		sc.nodes = append(sc.nodes, sceneNode{el: e, parent: parent})
		if id := e.get("id"); id != "" {
			if _, ok := sc.byID[id]; !ok {
				sc.byID[id] = k
			}
		}
		for _, c := range e.kids {
			switch c.name {
			case "matrix", "translate", "rotate", "scale":
				v, err := d.numbersOf(c, width[c.name])
				if err != nil {
					return err
				}
				if c.name == "matrix" {
					if _, err := affineAt(c, v, 0); err != nil {
						return err
					}
				}
				sc.nodes[k].xf = append(sc.nodes[k].xf, xform{el: c, val: v})
			case "lookat", "skew":
				return c.errorf("%w: %s transforms", format.ErrUnsupported, c.name)
			case "instance_controller":
				if sc.inst != nil {
					return c.errorf("a second skinned mesh (the first at line %d): %w (meshrig reads one skinned mesh per file)", sc.inst.line, format.ErrUnsupported)
				}
				sc.inst = c
			case "instance_geometry":
				return c.errorf("geometry %q without a skin: %w (meshrig reads one skinned mesh per file)", c.get("url"), format.ErrUnsupported)
			case "instance_node":
				return c.errorf("%w: nodes instanced from a library", format.ErrUnsupported)
			case "node":
				if err := walk(c, k); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, n := range vs.all("node") {
		if err := walk(n, -1); err != nil {
			return nil, err
		}
	}
	if sc.inst == nil {
		return nil, vs.errorf("no skinned mesh (<instance_controller>): %w", format.ErrNoFrames)
	}
	for _, s := range sc.inst.all("skeleton") {
		k, ok := sc.byID[strings.TrimPrefix(s.text, "#")]
		if !ok || !strings.HasPrefix(s.text, "#") {
			return nil, s.errorf("%q is not a node of the visual scene", s.text)
		}
		sc.roots = append(sc.roots, k)
	}
	return sc, nil
}

// under reports whether node k is r or one of its descendants.
func (sc *sceneData) under(k, r int) bool {
	for ; k >= 0; k = sc.nodes[k].parent {
		if k == r {
			return true
		}
	}
	return false
}

// jointNodes resolves the skin's joints to nodes (jointNode). Two joints
// may not share a node.
func (sc *sceneData) jointNodes(s *skinData) ([]int, error) {
	out := make([]int, len(s.names))
	used := map[int]int{}
	for j, name := range s.names {
		k, err := sc.jointNode(s, name)
		if err != nil {
			return nil, err
		}
		if k < 0 {
			what := "sid, id or name"
			if s.byID {
				what = "id"
			}
			return nil, s.jointsEl.errorf("joint %q: no node of the visual scene has that %s", name, what)
		}
		if o, dup := used[k]; dup {
			return nil, s.jointsEl.errorf("joints %q and %q are the same node (line %d)", s.names[o], name, sc.nodes[k].el.line)
		}
		used[k] = j
		out[j] = k
	}
	return out, nil
}

// jointNode finds a skin joint's node, or -1: an IDREF_array names node
// IDs; a Name_array names SIDs, looked up under the instance's <skeleton>
// nodes (or in the whole scene without one), then as an ID, then as a
// node name (some exporters write those).
func (sc *sceneData) jointNode(s *skinData, name string) (int, error) {
	if !s.byID {
		if k, err := sc.find(s, "sid", name, true); err != nil || k >= 0 {
			return k, err
		}
	}
	if k, ok := sc.byID[name]; ok {
		return k, nil
	}
	if s.byID {
		return -1, nil
	}
	return sc.find(s, "name", name, false)
}

// find returns the one node whose attribute attr is value (under the
// <skeleton> nodes when scoped and there are any), -1 for none.
func (sc *sceneData) find(s *skinData, attr, value string, scoped bool) (int, error) {
	found := -1
	for k, n := range sc.nodes {
		if n.el.get(attr) != value {
			continue
		}
		in := !scoped || len(sc.roots) == 0
		for _, r := range sc.roots {
			in = in || sc.under(k, r)
		}
		if !in {
			continue
		}
		if found >= 0 {
			return -1, s.jointsEl.errorf("joint %q: nodes at lines %d and %d both have that %s", value, sc.nodes[found].el.line, n.el.line, attr)
		}
		found = k
	}
	return found, nil
}

// local composes a node's transform elements, in order, with values val[i]
// for element i.
func local(xf []xform, val func(i int) []float64) linalg.Affine {
	m := linalg.IdentityAffine()
	for i, x := range xf {
		m = m.Mul(xformAffine(x.el.name, val(i)))
	}
	return m
}

// xformAffine is the transform of one element with values v.
func xformAffine(kind string, v []float64) linalg.Affine {
	switch kind {
	case "matrix":
		return linalg.Affine{
			M: linalg.Mat3{{v[0], v[1], v[2]}, {v[4], v[5], v[6]}, {v[8], v[9], v[10]}},
			T: linalg.Vec3{v[3], v[7], v[11]},
		}
	case "translate":
		return linalg.Translation(linalg.Vec3{v[0], v[1], v[2]})
	case "rotate":
		// A rotation about no axis is none (Normalize makes it the
		// identity).
		q := linalg.QuatFromAxisAngle(linalg.Vec3{v[0], v[1], v[2]}, v[3]*math.Pi/180).Normalize()
		return linalg.Affine{M: q.Mat3()}
	}
	return linalg.Affine{M: linalg.Mat3{{v[0], 0, 0}, {0, v[1], 0}, {0, 0, v[2]}}}
}
