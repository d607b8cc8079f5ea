package gltf

import (
	"fmt"
	"maps"
	"slices"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// prim is one drawn primitive: a mesh primitive instanced by a node.
type prim struct {
	node, skin int // skin -1 when unskinned
	first      int // index of its first vertex in the combined mesh
	// alias marks a primitive drawing the vertices of an earlier one of
	// the same node (every attribute accessor shared, as exporters write a
	// mesh split by material): its vertices are that one's, not new.
	alias   bool
	pos     []linalg.Vec3
	targets [][]linalg.Vec3 // morph-target position offsets
	tris    [][3]int        // local vertex indices
	skinW   []rig.Influence // four largest; joint slots index the skin's joint list
	allW    *influences     // every influence, when some vertex has more than four
	looks   looks           // what the surface shows: UVs, normals, colours, material
	name    string          // extras.name, as Write names a part
}

// primitives gathers every triangle primitive of the scene's mesh nodes.
func primitives(doc *gltflib.Document, g *graph) ([]prim, error) {
	var out []prim
	first := 0
	type owner struct {
		attrs   gltflib.PrimitiveAttributes
		targets []gltflib.PrimitiveAttributes
		first   int
	}
	for _, ni := range g.order {
		nd := doc.Nodes[ni]
		if nd.Mesh == nil {
			continue
		}
		mi := *nd.Mesh
		if mi < 0 || mi >= len(doc.Meshes) || doc.Meshes[mi] == nil {
			return nil, fmt.Errorf("node %d: mesh %d does not exist", ni, mi)
		}
		skin := -1
		if nd.Skin != nil {
			skin = *nd.Skin
			if skin < 0 || skin >= len(doc.Skins) || doc.Skins[skin] == nil {
				return nil, fmt.Errorf("node %d: skin %d does not exist", ni, skin)
			}
		}
		var owners []owner
		for pi, p := range doc.Meshes[mi].Primitives {
			if p == nil {
				continue
			}
			pr, ok, err := readPrim(doc, p, skin)
			if err != nil {
				return nil, fmt.Errorf("mesh %d primitive %d: %w", mi, pi, err)
			}
			if !ok {
				continue
			}
			pr.node, pr.first = ni, first
			for _, o := range owners {
				if maps.Equal(o.attrs, p.Attributes) && slices.EqualFunc(o.targets, p.Targets, maps.Equal) {
					pr.first, pr.alias = o.first, true
					break
				}
			}
			if !pr.alias {
				owners = append(owners, owner{p.Attributes, p.Targets, first})
				first += len(pr.pos)
			}
			out = append(out, pr)
		}
	}
	return out, nil
}

// readPrim reads one primitive; ok is false for points and lines.
func readPrim(doc *gltflib.Document, p *gltflib.Primitive, skin int) (prim, bool, error) {
	pr := prim{skin: skin}
	pi, has := p.Attributes[gltflib.POSITION]
	if !has {
		return pr, false, fmt.Errorf("no POSITION attribute")
	}
	pos, nc, err := accessor(doc, pi)
	if err != nil {
		return pr, false, err
	}
	if nc != 3 {
		return pr, false, fmt.Errorf("POSITION has %d components", nc)
	}
	pr.pos = vec3s(pos)
	n := len(pr.pos)
	var idx []int
	if p.Indices != nil {
		iv, ic, err := accessor(doc, *p.Indices)
		if err != nil {
			return pr, false, fmt.Errorf("indices: %w", err)
		}
		if ic != 1 {
			return pr, false, fmt.Errorf("indices have %d components", ic)
		}
		idx = make([]int, len(iv))
		for k, v := range iv {
			if v < 0 || v >= float64(n) {
				return pr, false, fmt.Errorf("index %v out of range (%d vertices)", v, n)
			}
			idx[k] = int(v)
		}
	} else {
		idx = make([]int, n)
		for k := range idx {
			idx[k] = k
		}
	}
	switch p.Mode {
	case gltflib.PrimitiveTriangles:
		for k := 0; k+2 < len(idx); k += 3 {
			pr.tris = append(pr.tris, [3]int{idx[k], idx[k+1], idx[k+2]})
		}
	case gltflib.PrimitiveTriangleStrip:
		for k := 0; k+2 < len(idx); k++ {
			if k%2 == 0 {
				pr.tris = append(pr.tris, [3]int{idx[k], idx[k+1], idx[k+2]})
			} else {
				pr.tris = append(pr.tris, [3]int{idx[k+1], idx[k], idx[k+2]})
			}
		}
	case gltflib.PrimitiveTriangleFan:
		for k := 1; k+1 < len(idx); k++ {
			pr.tris = append(pr.tris, [3]int{idx[0], idx[k], idx[k+1]})
		}
	default:
		return pr, false, nil // points and lines have no surface to rig
	}
	// Drop degenerate triangles (repeated vertex), which glTF allows.
	kept := pr.tris[:0]
	for _, t := range pr.tris {
		if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] {
			kept = append(kept, t)
		}
	}
	pr.tris = kept
	for ti, t := range p.Targets {
		ai, ok := t[gltflib.POSITION]
		if !ok {
			pr.targets = append(pr.targets, make([]linalg.Vec3, n))
			continue
		}
		d, dc, err := accessor(doc, ai)
		if err != nil {
			return pr, false, fmt.Errorf("morph target %d: %w", ti, err)
		}
		if dc != 3 || len(d) != 3*n {
			return pr, false, fmt.Errorf("morph target %d has %d values for %d vertices", ti, len(d), n)
		}
		pr.targets = append(pr.targets, vec3s(d))
	}
	if pr.looks, err = readLooks(doc, p, n); err != nil {
		return pr, false, err
	}
	if ex, ok := p.Extras.(map[string]any); ok {
		pr.name, _ = ex["name"].(string)
	}
	if skin >= 0 {
		if pr.skinW, pr.allW, err = readSkinWeights(doc, p, n, len(doc.Skins[skin].Joints)); err != nil {
			return pr, false, err
		}
	}
	return pr, true, nil
}

// influences are every joint weight of every vertex of a primitive, in
// compressed rows: vertex i has joint[start[i]:start[i+1]] with weights
// summing to one. They pose the sequence exactly as the file asks when a
// vertex has more than the four influences a rig.Skin keeps.
type influences struct {
	start  []int
	joint  []int
	weight []float64
}

// readSkinWeights reads the JOINTS_k/WEIGHTS_k sets of a primitive: top
// holds the four largest influences per vertex, renormalized (the rig's
// skin); all holds every influence, or is nil when no vertex has more
// than four. Repeated joints of a vertex are merged.
func readSkinWeights(doc *gltflib.Document, p *gltflib.Primitive, n, joints int) (top []rig.Influence, all *influences, err error) {
	type set struct{ j, w []float64 }
	var sets []set
	for k := 0; ; k++ {
		ja, okj := p.Attributes[fmt.Sprintf("JOINTS_%d", k)]
		wa, okw := p.Attributes[fmt.Sprintf("WEIGHTS_%d", k)]
		if !okj || !okw {
			break
		}
		jv, jc, err := accessor(doc, ja)
		if err != nil {
			return nil, nil, fmt.Errorf("JOINTS_%d: %w", k, err)
		}
		wv, wc, err := accessor(doc, wa)
		if err != nil {
			return nil, nil, fmt.Errorf("WEIGHTS_%d: %w", k, err)
		}
		if jc != 4 || wc != 4 || len(jv) != 4*n || len(wv) != 4*n {
			return nil, nil, fmt.Errorf("JOINTS_%d/WEIGHTS_%d do not hold 4 values for each of %d vertices", k, k, n)
		}
		sets = append(sets, set{jv, wv})
	}
	if len(sets) == 0 {
		return nil, nil, fmt.Errorf("skinned primitive has no JOINTS_0/WEIGHTS_0")
	}
	top = make([]rig.Influence, n)
	var rowJ []int
	var rowW []float64
	many := &influences{start: make([]int, 1, n+1)}
	wide := false
	for i := 0; i < n; i++ {
		rowJ, rowW = rowJ[:0], rowW[:0]
		for _, st := range sets {
			for k := 4 * i; k < 4*i+4; k++ {
				w := st.w[k]
				if w <= 0 {
					continue
				}
				j := int(st.j[k])
				if j < 0 || j >= joints {
					return nil, nil, fmt.Errorf("vertex %d: joint %d out of range (the skin has %d)", i, j, joints)
				}
				merged := false
				for r := range rowJ {
					if rowJ[r] == j {
						rowW[r] += w
						merged = true
					}
				}
				if !merged {
					rowJ, rowW = append(rowJ, j), append(rowW, w)
				}
			}
		}
		top[i] = largest4(rowJ, rowW)
		if len(rowJ) > rig.MaxInfluences {
			wide = true
		}
		var sum float64
		for _, w := range rowW {
			sum += w
		}
		if sum > 0 && len(rowJ) > 0 {
			for r := range rowJ {
				many.joint = append(many.joint, rowJ[r])
				many.weight = append(many.weight, rowW[r]/sum)
			}
		} else { // no weight: as the rig does, all on the first joint
			many.joint = append(many.joint, int(top[i].Joint[0]))
			many.weight = append(many.weight, 1)
		}
		many.start = append(many.start, len(many.joint))
	}
	if !wide {
		many = nil
	}
	return top, many, nil
}

// largest4 returns the four largest of a vertex's influences, normalized.
func largest4(joint []int, weight []float64) rig.Influence {
	var in rig.Influence
	for r, w := range weight {
		small := 0
		for k := 1; k < rig.MaxInfluences; k++ {
			if in.Weight[k] < in.Weight[small] {
				small = k
			}
		}
		if w > in.Weight[small] {
			in.Joint[small], in.Weight[small] = rig.JointID(joint[r]), w
		}
	}
	return in.Normalized()
}

func vec3s(v []float64) []linalg.Vec3 {
	out := make([]linalg.Vec3, len(v)/3)
	for i := range out {
		out[i] = linalg.Vec3{v[3*i], v[3*i+1], v[3*i+2]}
	}
	return out
}

// morphWeights returns the default morph weights of node ni's mesh.
func morphWeights(doc *gltflib.Document, ni int) []float64 {
	nd := doc.Nodes[ni]
	if len(nd.Weights) > 0 {
		return nd.Weights
	}
	if nd.Mesh != nil && *nd.Mesh >= 0 && *nd.Mesh < len(doc.Meshes) {
		return doc.Meshes[*nd.Mesh].Weights
	}
	return nil
}
