package usd

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// readMesh reads the skinned mesh: points, faces, skinning primvars
// (elementSize at most 4), the geometry bind transform applied to the
// points, and the surface.
func readMesh(p, root *prim, joints int) (*mesh.Mesh, rig.Skin, error) {
	pa, err := attr(p, "points", "point3f[]", true)
	if err != nil {
		return nil, nil, err
	}
	pts, err := numbers(pa, pa.val, 3, -1)
	if err != nil {
		return nil, nil, err
	}
	n := len(pts) / 3
	verts := make([]linalg.Vec3, n)
	for i := range verts {
		verts[i] = linalg.Vec3{pts[3*i], pts[3*i+1], pts[3*i+2]}
	}
	if g, err := attr(p, "primvars:skel:geomBindTransform", "matrix4d", false); err != nil {
		return nil, nil, err
	} else if g != nil {
		m, err := numbers(g, g.val, 4, 4) // four rows
		if err != nil {
			return nil, nil, err
		}
		for i, v := range verts {
			// Row vector times matrix.
			verts[i] = linalg.Vec3{
				v[0]*m[0] + v[1]*m[4] + v[2]*m[8] + m[12],
				v[0]*m[1] + v[1]*m[5] + v[2]*m[9] + m[13],
				v[0]*m[2] + v[1]*m[6] + v[2]*m[10] + m[14],
			}
		}
	}
	ca, err := attr(p, "faceVertexCounts", "int[]", true)
	if err != nil {
		return nil, nil, err
	}
	counts, err := numbers(ca, ca.val, 1, -1)
	if err != nil {
		return nil, nil, err
	}
	ia, err := attr(p, "faceVertexIndices", "int[]", true)
	if err != nil {
		return nil, nil, err
	}
	idx, err := numbers(ia, ia.val, 1, -1)
	if err != nil {
		return nil, nil, err
	}
	polys := make([][]int, len(counts))
	at := 0
	for k, c := range counts {
		if c != math.Trunc(c) || c < 3 || float64(len(idx)-at) < c {
			return nil, nil, failf(ca.line, "face %d has %v vertices (need 3 or more, and %d indices remain)", k+1, c, len(idx)-at)
		}
		polys[k] = make([]int, int(c))
		for i := range polys[k] {
			v := idx[at+i]
			if v != math.Trunc(v) || v < 0 || v >= float64(n) {
				return nil, nil, failf(ia.line, "face %d: vertex index %v out of range (%d points)", k+1, v, n)
			}
			polys[k][i] = int(v)
		}
		at += int(c)
	}
	if at != len(idx) {
		return nil, nil, failf(ia.line, "faceVertexIndices has %d indices, the counts use %d", len(idx), at)
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		return nil, nil, failf(ca.line, "mesh: %v", err)
	}
	skin, err := readSkin(p, n, joints)
	if err != nil {
		return nil, nil, err
	}
	if err := readSurface(p, root, m, counts); err != nil {
		return nil, nil, err
	}
	return m, skin, nil
}

// readSkin reads the joint indices and weights, elementSize of them per
// point.
func readSkin(p *prim, n, joints int) (rig.Skin, error) {
	ia, err := attr(p, "primvars:skel:jointIndices", "int[]", true)
	if err != nil {
		return nil, err
	}
	wa, err := attr(p, "primvars:skel:jointWeights", "float[]", true)
	if err != nil {
		return nil, err
	}
	size := 1
	for _, a := range []*prop{ia, wa} {
		es, ok := a.meta["elementSize"]
		s := 1
		if ok {
			if es.kind != vNumber || es.num != math.Trunc(es.num) || es.num < 1 || es.num > rig.MaxInfluences {
				return nil, failf(a.line, "%s: elementSize must be 1 to %d", a.name, rig.MaxInfluences)
			}
			s = int(es.num)
		}
		if a == ia {
			size = s
		} else if s != size {
			return nil, failf(a.line, "jointIndices have elementSize %d, jointWeights %d", size, s)
		}
		if in, ok := a.meta["interpolation"]; ok && (in.kind != vString || in.str != "vertex") {
			return nil, failf(a.line, "%s: interpolation must be \"vertex\"", a.name)
		}
	}
	idx, err := numbers(ia, ia.val, 1, n*size)
	if err != nil {
		return nil, err
	}
	w, err := numbers(wa, wa.val, 1, n*size)
	if err != nil {
		return nil, err
	}
	skin := make(rig.Skin, n)
	for i := range skin {
		for k := 0; k < size; k++ {
			j := idx[i*size+k]
			if j != math.Trunc(j) || j < 0 || j >= float64(joints) {
				return nil, failf(ia.line, "point %d: joint index %v out of range (%d joints)", i+1, j, joints)
			}
			skin[i].Joint[k] = rig.JointID(j)
			skin[i].Weight[k] = w[i*size+k]
		}
	}
	return skin, nil
}
