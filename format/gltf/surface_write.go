package gltf

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// layout maps the vertices written to the mesh's: glTF holds attributes
// per vertex, so a vertex whose corners carry different per-corner values
// (an OBJ UV seam) is written once per combination. The mesh's vertices
// come first, in order; the copies follow.
type layout struct {
	src    []int      // mesh vertex of each written vertex
	corner []int      // the corner (3t+k) whose values it takes; -1 when no corner uses it
	tris   [][3]int   // triangles over written vertices
	attrs  []cornered // the per-corner attributes, in key order
}

// cornered reads one per-corner attribute's value index at a corner.
type cornered func(c int) int32

// newLayout splits m's vertices where per-corner attributes differ.
func newLayout(m *mesh.Mesh) *layout {
	n := len(m.Verts)
	l := &layout{src: make([]int, n), corner: make([]int, n), tris: m.Tris}
	for i := range l.src {
		l.src[i], l.corner[i] = i, -1
	}
	if s := m.Surface; s != nil {
		for k := range s.UVs {
			if s.UVs[k].PerCorner() {
				l.attrs = append(l.attrs, func(c int) int32 { return s.UVs[k].Index[c] })
			}
		}
		if s.Normals != nil && s.Normals.PerCorner() {
			l.attrs = append(l.attrs, func(c int) int32 { return s.Normals.Index[c] })
		}
		for k := range s.Colors {
			if s.Colors[k].PerCorner() {
				l.attrs = append(l.attrs, func(c int) int32 { return s.Colors[k].Index[c] })
			}
		}
	}
	if len(l.attrs) == 0 {
		for t, tri := range m.Tris {
			for k, v := range tri {
				if l.corner[v] < 0 {
					l.corner[v] = 3*t + k
				}
			}
		}
		return l
	}
	key := func(v, c int) string {
		b := binary.LittleEndian.AppendUint64(nil, uint64(v))
		for _, a := range l.attrs {
			b = binary.LittleEndian.AppendUint32(b, uint32(a(c)))
		}
		return string(b)
	}
	seen := make(map[string]int, n)
	l.tris = make([][3]int, len(m.Tris))
	for t, tri := range m.Tris {
		for k, v := range tri {
			c := 3*t + k
			kc := key(v, c)
			w, ok := seen[kc]
			switch {
			case ok:
			case l.corner[v] < 0:
				w, l.corner[v] = v, c
			default:
				w = len(l.src)
				l.src, l.corner = append(l.src, v), append(l.corner, c)
			}
			seen[kc] = w
			l.tris[t][k] = w
		}
	}
	return l
}

// values spreads an attribute over the written vertices; a vertex no
// corner uses takes zero.
func values[T any](l *layout, a *mesh.Attr[T]) []T {
	out := make([]T, len(l.src))
	for w, v := range l.src {
		switch {
		case !a.PerCorner():
			out[w] = a.Values[v]
		case l.corner[w] >= 0:
			out[w] = a.Values[a.Index[l.corner[w]]]
		}
	}
	return out
}

// normals returns the written vertices' unit normals: the surface's own
// (renormalized where float32 rounding or the file left them off unit
// length, as glTF requires unit normals), or smooth ones computed from
// the mesh where it has none or gives a zero normal.
func (l *layout) normals(m *mesh.Mesh) [][3]float32 {
	smooth := mesh.VertexNormals(m.Verts, m.Tris)
	out := make([][3]float32, len(l.src))
	var given [][3]float32
	if s := m.Surface; s != nil && s.Normals != nil {
		given = values(l, s.Normals)
	}
	for w, v := range l.src {
		if given != nil {
			g := given[w]
			l2 := float64(g[0])*float64(g[0]) + float64(g[1])*float64(g[1]) + float64(g[2])*float64(g[2])
			if math.Abs(l2-1) <= 1e-4 {
				out[w] = g
				continue
			}
			if l2 > 1e-12 {
				out[w] = unit32(linalg.Vec3{float64(g[0]), float64(g[1]), float64(g[2])})
				continue
			}
		}
		out[w] = unit32(smooth[v])
	}
	return out
}

// partTris groups the written triangles by part, in order; a mesh with
// no parts is one group. Empty parts are left out (glTF has no empty
// primitive).
func partTris(m *mesh.Mesh, tris [][3]int) (groups [][][3]int, parts []int) {
	s := m.Surface
	if s == nil || len(s.Parts) == 0 {
		return [][][3]int{tris}, []int{-1}
	}
	by := make([][][3]int, len(s.Parts))
	for t, tri := range tris {
		p := s.Part(t)
		by[p] = append(by[p], tri)
	}
	for p, g := range by {
		if len(g) > 0 {
			groups, parts = append(groups, g), append(parts, p)
		}
	}
	return groups, parts
}

// writeMaterials adds the surface's materials, with the textures and
// embedded images they use, as glTF materials of the same index. An image
// without bytes, or in a format core glTF does not take (PNG and JPEG), is
// left out with the texture references to it, as is a texture on a UV set
// past the ones written (maxSets).
func writeMaterials(doc *gltflib.Document, s *mesh.Surface) {
	if s == nil {
		return
	}
	image := make([]int, len(s.Images))
	for k, im := range s.Images {
		image[k] = -1
		if len(im.Data) == 0 || (im.MIMEType != "image/png" && im.MIMEType != "image/jpeg") {
			continue
		}
		idx, err := modeler.WriteImage(doc, im.Name, im.MIMEType, bytes.NewReader(im.Data))
		if err == nil {
			image[k] = idx
		}
	}
	samplers := map[mesh.Sampler]int{}
	textures := map[[2]int]int{}
	texture := func(t *mesh.TextureRef) (int, bool) {
		if t == nil || image[t.Image] < 0 || t.UVSet >= maxSets {
			return 0, false
		}
		si := -1
		if t.Sampler != (mesh.Sampler{}) {
			var ok bool
			if si, ok = samplers[t.Sampler]; !ok {
				si = len(doc.Samplers)
				samplers[t.Sampler] = si
				doc.Samplers = append(doc.Samplers, samplerOf(t.Sampler))
			}
		}
		key := [2]int{image[t.Image], si}
		ti, ok := textures[key]
		if !ok {
			ti = len(doc.Textures)
			textures[key] = ti
			tx := &gltflib.Texture{Source: gltflib.Index(image[t.Image])}
			if si >= 0 {
				tx.Sampler = gltflib.Index(si)
			}
			doc.Textures = append(doc.Textures, tx)
		}
		return ti, true
	}
	info := func(t *mesh.TextureRef) *gltflib.TextureInfo {
		if ti, ok := texture(t); ok {
			return &gltflib.TextureInfo{Index: ti, TexCoord: t.UVSet, Extensions: transformExt(doc, t)}
		}
		return nil
	}
	for _, m := range s.Materials {
		c := m.BaseColor
		pbr := &gltflib.PBRMetallicRoughness{
			BaseColorFactor:          &[4]float64{float64(c[0]), float64(c[1]), float64(c[2]), float64(c[3])},
			MetallicFactor:           gltflib.Float(float64(m.Metallic)),
			RoughnessFactor:          gltflib.Float(float64(m.Roughness)),
			BaseColorTexture:         info(m.BaseColorTexture),
			MetallicRoughnessTexture: info(m.MetallicRoughnessTexture),
		}
		g := &gltflib.Material{
			Name:                 m.Name,
			PBRMetallicRoughness: pbr,
			EmissiveTexture:      info(m.EmissiveTexture),
			EmissiveFactor:       [3]float64{float64(m.Emissive[0]), float64(m.Emissive[1]), float64(m.Emissive[2])},
			DoubleSided:          m.DoubleSided,
		}
		if ti, ok := texture(m.NormalTexture); ok {
			g.NormalTexture = &gltflib.NormalTexture{Index: gltflib.Index(ti), TexCoord: m.NormalTexture.UVSet,
				Scale: gltflib.Float(float64(m.NormalTexture.Scale)), Extensions: transformExt(doc, m.NormalTexture)}
		}
		if ti, ok := texture(m.OcclusionTexture); ok {
			g.OcclusionTexture = &gltflib.OcclusionTexture{Index: gltflib.Index(ti), TexCoord: m.OcclusionTexture.UVSet,
				Strength: gltflib.Float(float64(m.OcclusionTexture.Scale)), Extensions: transformExt(doc, m.OcclusionTexture)}
		}
		switch m.AlphaMode {
		case "MASK":
			g.AlphaMode, g.AlphaCutoff = gltflib.AlphaMask, gltflib.Float(float64(m.AlphaCutoff))
		case "BLEND":
			g.AlphaMode = gltflib.AlphaBlend
		}
		doc.Materials = append(doc.Materials, g)
	}
}

// transformExt returns a texture reference's KHR_texture_transform
// extension, declaring it used, or nil without a transform.
func transformExt(doc *gltflib.Document, t *mesh.TextureRef) gltflib.Extensions {
	x := t.Transform
	if x == nil {
		return nil
	}
	if !slices.Contains(doc.ExtensionsUsed, textureTransform) {
		doc.ExtensionsUsed = append(doc.ExtensionsUsed, textureTransform)
	}
	raw, _ := json.Marshal(struct {
		Offset   [2]float32 `json:"offset"`
		Rotation float32    `json:"rotation"`
		Scale    [2]float32 `json:"scale"`
	}{x.Offset, x.Rotation, x.Scale})
	return gltflib.Extensions{textureTransform: json.RawMessage(raw)}
}

// samplerOf turns numeric codes into a glTF sampler; an unknown code is
// left unset.
func samplerOf(s mesh.Sampler) *gltflib.Sampler {
	mag := map[int]gltflib.MagFilter{9728: gltflib.MagNearest, 9729: gltflib.MagLinear}
	min := map[int]gltflib.MinFilter{
		9728: gltflib.MinNearest, 9729: gltflib.MinLinear,
		9984: gltflib.MinNearestMipMapNearest, 9985: gltflib.MinLinearMipMapNearest,
		9986: gltflib.MinNearestMipMapLinear, 9987: gltflib.MinLinearMipMapLinear,
	}
	wrap := map[int]gltflib.WrappingMode{10497: gltflib.WrapRepeat, 33071: gltflib.WrapClampToEdge, 33648: gltflib.WrapMirroredRepeat}
	return &gltflib.Sampler{MagFilter: mag[s.MagFilter], MinFilter: min[s.MinFilter], WrapS: wrap[s.WrapS], WrapT: wrap[s.WrapT]}
}
