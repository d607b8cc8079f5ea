package gltf

import (
	"fmt"
	"io"
	"math"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// Write writes r as a binary glTF 2.0 file (GLB), or with opt.JSON as a
// .gltf JSON file with its buffer embedded as a base64 data: uri (a third
// larger, one file all the same): the rest mesh with normals (the mesh
// surface's own, else smooth ones) and what its mesh.Surface keeps — every
// UV set (TEXCOORD_n) and colour set (COLOR_n), a primitive per part with
// its material, materials with their textures, samplers and images
// embedded (PNG and JPEG with their bytes; others are left out), vertices
// in the mesh's order, with a vertex whose corners carry different
// per-corner values (OBJ seams) written once per combination after
// them —, a skin with inverse bind matrices over the joint node hierarchy
// (identity rest rotations, translations = rest offsets), and one
// animation per clip with a rotation channel per joint, a translation
// channel on the root, and translation channels on any other joint whose
// offset moves (the free form).
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	if opt.Version != "" && opt.Version != "2.0" {
		return fmt.Errorf("glTF version %q: %w (meshrig writes 2.0)", opt.Version, format.ErrUnsupported)
	}
	if err := r.Validate(); err != nil {
		return err
	}
	doc := gltflib.NewDocument()
	doc.Asset.Generator = "meshrig"
	nj := r.Skeleton.Len()

	// Joint nodes come first: node j is joint j.
	for j, jt := range r.Skeleton.Joints {
		off := r.Skeleton.Offset(rig.JointID(j))
		doc.Nodes = append(doc.Nodes, &gltflib.Node{
			Name:        jt.Name,
			Translation: [3]float64{off[0], off[1], off[2]},
			Rotation:    [4]float64{0, 0, 0, 1},
			Scale:       [3]float64{1, 1, 1},
		})
		if jt.Parent != rig.NoParent {
			p := doc.Nodes[jt.Parent]
			p.Children = append(p.Children, j)
		}
	}
	meshNode := len(doc.Nodes)
	prims, err := writeMesh(doc, r)
	if err != nil {
		return err
	}
	doc.Meshes = []*gltflib.Mesh{{Name: "mesh", Primitives: prims}}
	ibm := make([][4][4]float32, nj)
	for j, jt := range r.Skeleton.Joints {
		ibm[j] = mat4f(linalg.Translation(jt.Head.Scale(-1)))
	}
	joints := make([]int, nj)
	for j := range joints {
		joints[j] = j
	}
	doc.Skins = []*gltflib.Skin{{
		Name:                "skin",
		InverseBindMatrices: gltflib.Index(modeler.WriteAccessor(doc, gltflib.TargetNone, ibm)),
		Skeleton:            gltflib.Index(0),
		Joints:              joints,
	}}
	doc.Nodes = append(doc.Nodes, &gltflib.Node{
		Name: "mesh", Mesh: gltflib.Index(0), Skin: gltflib.Index(0),
		Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1},
	})
	doc.Scenes = []*gltflib.Scene{{Name: "scene", Nodes: []int{0, meshNode}}}
	doc.Scene = gltflib.Index(0)
	for c := range r.Clips {
		if err := writeClip(doc, &r.Skeleton, &r.Clips[c]); err != nil {
			return err
		}
	}
	// Images last: their byte lengths need not keep the accessors' alignment.
	writeMaterials(doc, r.Mesh.Surface)
	enc := gltflib.NewEncoder(w)
	enc.AsBinary = !opt.JSON
	if opt.JSON {
		for _, b := range doc.Buffers {
			b.EmbeddedResource()
		}
	}
	return enc.Encode(doc)
}

// writeMesh adds the rest mesh's accessors and returns its primitives:
// one per part of the mesh's surface (one in all without parts), sharing
// the vertex attributes, each with its part's material.
func writeMesh(doc *gltflib.Document, r *rig.Rig) ([]*gltflib.Primitive, error) {
	m := r.Mesh
	l := newLayout(m)
	n := len(l.src)
	pos := make([][3]float32, n)
	for w, v := range l.src {
		p := m.Verts[v]
		pos[w] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	var joints any
	wts := make([][4]float32, n)
	if r.Skeleton.Len() <= 256 {
		j8 := make([][4]uint8, n)
		for w, v := range l.src {
			in := r.Skin[v]
			for k := 0; k < rig.MaxInfluences; k++ {
				if in.Weight[k] > 0 {
					j8[w][k] = uint8(in.Joint[k])
				}
			}
			wts[w] = weights32(in)
		}
		joints = j8
	} else {
		j16 := make([][4]uint16, n)
		for w, v := range l.src {
			in := r.Skin[v]
			for k := 0; k < rig.MaxInfluences; k++ {
				if in.Weight[k] > 0 {
					j16[w][k] = uint16(in.Joint[k])
				}
			}
			wts[w] = weights32(in)
		}
		joints = j16
	}
	attrs := []modeler.PrimitiveAttribute{
		{Name: gltflib.POSITION, Data: pos},
		{Name: gltflib.NORMAL, Data: l.normals(m)},
		{Name: gltflib.JOINTS_0, Data: joints},
		{Name: gltflib.WEIGHTS_0, Data: wts},
	}
	if s := m.Surface; s != nil {
		for k := range s.UVs[:min(len(s.UVs), maxSets)] {
			attrs = append(attrs, modeler.PrimitiveAttribute{Name: fmt.Sprintf("TEXCOORD_%d", k), Data: values(l, &s.UVs[k])})
		}
		for k := range s.Colors[:min(len(s.Colors), maxSets)] {
			col := values(l, &s.Colors[k])
			for i := range col { // glTF colours lie in [0,1]
				for c := range col[i] {
					col[i][c] = max(0, min(1, col[i][c]))
				}
			}
			attrs = append(attrs, modeler.PrimitiveAttribute{Name: fmt.Sprintf("COLOR_%d", k), Data: col})
		}
	}
	written, err := modeler.WritePrimitiveAttributes(doc, attrs...)
	if err != nil {
		return nil, err
	}
	groups, parts := partTris(m, l.tris)
	var prims []*gltflib.Primitive
	for g, tris := range groups {
		p := &gltflib.Primitive{
			Attributes: written,
			Indices:    gltflib.Index(modeler.WriteIndices(doc, indices(tris, n))),
			Mode:       gltflib.PrimitiveTriangles,
		}
		if parts[g] >= 0 {
			part := m.Surface.Parts[parts[g]]
			if part.Material >= 0 {
				p.Material = gltflib.Index(part.Material)
			}
			if part.Name != "" {
				// glTF names meshes, not primitives: the part's (object's)
				// name rides in extras, where ReadScene looks for it.
				p.Extras = map[string]any{"name": part.Name}
			}
		}
		prims = append(prims, p)
	}
	return prims, nil
}

// maxSets bounds the UV and colour sets written: the attributes share one
// interleaved buffer view, whose stride glTF caps at 252 bytes (8 UV sets
// and 8 RGBA colour sets fit beside position, normal, joints and weights).
const maxSets = 8

// indices returns the triangles' vertex indices in the smallest unsigned
// type that holds n vertices.
func indices(tris [][3]int, n int) any {
	if n < 1<<16 {
		idx := make([]uint16, 0, 3*len(tris))
		for _, t := range tris {
			idx = append(idx, uint16(t[0]), uint16(t[1]), uint16(t[2]))
		}
		return idx
	}
	idx := make([]uint32, 0, 3*len(tris))
	for _, t := range tris {
		idx = append(idx, uint32(t[0]), uint32(t[1]), uint32(t[2]))
	}
	return idx
}

// weights32 converts weights to float32 so that they still sum to one
// after rounding: the largest absorbs the rounding error.
func weights32(in rig.Influence) [4]float32 {
	var w [4]float32
	var sum float32
	big := 0
	for k, x := range in.Weight {
		w[k] = float32(x)
		sum += w[k]
		if w[k] > w[big] {
			big = k
		}
	}
	w[big] += 1 - sum
	return w
}

// unit32 returns v as a float32 unit vector.
func unit32(v linalg.Vec3) [3]float32 {
	f := [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	l := float32(math.Sqrt(float64(f[0]*f[0] + f[1]*f[1] + f[2]*f[2])))
	if l == 0 {
		return [3]float32{0, 0, 1}
	}
	return [3]float32{f[0] / l, f[1] / l, f[2] / l}
}

// mat4f converts to a float32 matrix indexed [row][col]; qmuntal/gltf
// stores it column-major, as glTF requires.
func mat4f(a linalg.Affine) [4][4]float32 {
	c := a.Mat4()
	var m [4][4]float32
	for col := 0; col < 4; col++ {
		for row := 0; row < 4; row++ {
			m[row][col] = float32(c[4*col+row])
		}
	}
	return m
}
