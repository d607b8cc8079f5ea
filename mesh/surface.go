package mesh

import (
	"fmt"
	"math"
	"slices"
)

// Surface is what a mesh carries for display besides its shape: texture
// coordinates, normals and colours as the file gave them, materials with
// their images, and the parts (primitives, objects, material groups) the
// triangles were read as. Readers fill it and writers take it; methods
// never look at it, and a rig keeps it because it keeps the rest mesh.
//
// Values stay in float32, as files hold them, so what is read is written
// back bit for bit.
//
// An attribute is per vertex or per corner. glTF is per vertex (a UV seam
// is split into duplicate vertices in the file, and the reader keeps the
// file's vertices). OBJ gives a vt/vn index per face corner; splitting its
// vertices at seams would change the vertex count its other frame files
// share, so the OBJ reader keeps corners, and a writer that needs values
// per vertex (glTF) splits vertices itself, appending the copies after
// the mesh's own vertices so their order is kept.
type Surface struct {
	// UVs are the texture coordinate sets in order (glTF TEXCOORD_n, OBJ
	// vt): u to the right, v down from the image's top-left corner, as
	// glTF has it (the OBJ reader flips v).
	UVs []Attr[[2]float32]
	// Normals are the file's own unit normals, or nil: writers then
	// compute smooth ones.
	Normals *Attr[[3]float32]
	// Colors are the vertex colour sets (glTF COLOR_n), linear RGBA.
	Colors []Attr[[4]float32]
	// Materials are what parts refer to.
	Materials []Material
	// Images are the textures materials use.
	Images []Image
	// Parts are the primitives or objects the triangles were read as, in
	// file order; a mesh read as one piece without a material may have
	// none.
	Parts []Part
	// TriPart gives each triangle's part (an index into Parts); nil when
	// Parts has at most one entry, which then holds every triangle.
	TriPart []int32
}

// Attr is one attribute: with Index nil, Values holds one value per mesh
// vertex; otherwise Index holds, for corner k of triangle t, the index
// into Values of that corner's value at Index[3t+k].
type Attr[T any] struct {
	// Name is the set's name where the file has one (an OBJ has none,
	// glTF "TEXCOORD_1"); writers may ignore it.
	Name   string
	Values []T
	Index  []int32
}

// PerCorner reports whether the attribute has a value per triangle corner.
func (a *Attr[T]) PerCorner() bool { return a.Index != nil }

// At returns the value at corner k of triangle t, whose vertex is v.
func (a *Attr[T]) At(t, k, v int) T {
	if a.Index != nil {
		return a.Values[a.Index[3*t+k]]
	}
	return a.Values[v]
}

func (a *Attr[T]) validate(what string, verts, tris int) error {
	if a.Index == nil {
		if len(a.Values) != verts {
			return fmt.Errorf("%s has %d values for %d vertices", what, len(a.Values), verts)
		}
		return nil
	}
	if len(a.Index) != 3*tris {
		return fmt.Errorf("%s has %d corner indices for %d triangles", what, len(a.Index), tris)
	}
	for c, i := range a.Index {
		if i < 0 || int(i) >= len(a.Values) {
			return fmt.Errorf("%s: corner %d of triangle %d refers to value %d of %d", what, c%3+1, c/3+1, i+1, len(a.Values))
		}
	}
	return nil
}

func (a *Attr[T]) clone() Attr[T] {
	return Attr[T]{Name: a.Name, Values: slices.Clone(a.Values), Index: slices.Clone(a.Index)}
}

// Part is one primitive or object of the mesh.
type Part struct {
	// Name is the object's or primitive's name ("" when the file has none).
	Name string
	// Material indexes Surface.Materials; -1 for none.
	Material int
}

// Material is a metallic-roughness material, as glTF defines it
// (pbrMetallicRoughness); other formats map onto it (OBJ: Kd and map_Kd
// as the base colour).
type Material struct {
	Name string
	// BaseColor is the linear RGBA factor, multiplied with the texture.
	BaseColor        [4]float32
	BaseColorTexture *TextureRef
	// Metallic and Roughness are factors in [0,1].
	Metallic, Roughness      float32
	MetallicRoughnessTexture *TextureRef
	// NormalTexture's Scale is glTF's normal scale.
	NormalTexture *TextureRef
	// OcclusionTexture's Scale is glTF's occlusion strength.
	OcclusionTexture *TextureRef
	EmissiveTexture  *TextureRef
	Emissive         [3]float32
	// AlphaMode is "OPAQUE" (or ""), "MASK" or "BLEND"; AlphaCutoff
	// applies to MASK.
	AlphaMode   string
	AlphaCutoff float32
	DoubleSided bool
}

// NewMaterial returns a material with glTF's defaults: white, fully
// metallic and rough, opaque.
func NewMaterial(name string) Material {
	return Material{Name: name, BaseColor: [4]float32{1, 1, 1, 1}, Metallic: 1, Roughness: 1, AlphaMode: "OPAQUE"}
}

// Textures returns the material's texture references that are set.
func (m *Material) Textures() []*TextureRef {
	var out []*TextureRef
	for _, t := range []*TextureRef{m.BaseColorTexture, m.MetallicRoughnessTexture, m.NormalTexture, m.OcclusionTexture, m.EmissiveTexture} {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// TextureRef is a material's use of an image.
type TextureRef struct {
	// Image indexes Surface.Images.
	Image int
	// UVSet indexes Surface.UVs.
	UVSet int
	// Scale is glTF's normal scale or occlusion strength (1 when unused).
	Scale   float32
	Sampler Sampler
	// Transform moves the UVs before sampling (glTF's
	// KHR_texture_transform); nil for none.
	Transform *UVTransform
}

// UVTransform maps a UV to where the texture is sampled, as glTF's
// KHR_texture_transform defines it (its GLSL, whose mat3 constructor fills
// columns): uv' = T(Offset)·R(Rotation)·S(Scale)·uv with
// R(r) = [cos r, −sin r; sin r, cos r] (radians).
type UVTransform struct {
	Offset   [2]float32
	Rotation float32
	Scale    [2]float32
}

// Apply returns the transformed (u, v).
func (x *UVTransform) Apply(u, v float64) (float64, float64) {
	u, v = u*float64(x.Scale[0]), v*float64(x.Scale[1])
	c, s := math.Cos(float64(x.Rotation)), math.Sin(float64(x.Rotation))
	return c*u - s*v + float64(x.Offset[0]), s*u + c*v + float64(x.Offset[1])
}

// Sampler holds glTF's (OpenGL's) filter and wrap codes; 0 is unset,
// meaning repeat and the viewer's choice of filter.
type Sampler struct {
	MagFilter, MinFilter, WrapS, WrapT int
}

// Image is a texture image: its bytes, or only the file it names.
type Image struct {
	Name string
	// MIMEType is "image/png" or "image/jpeg" ("" when unknown).
	MIMEType string
	// Data is the encoded image; nil when only Path is known.
	Data []byte
	// Path is the file the image was read from or names, relative to the
	// input's folder with slashes ("" for an image embedded in the file).
	Path string
}

// Validate checks the surface against a mesh of verts vertices and tris
// triangles: attribute sizes and indices, parts, materials and images.
func (s *Surface) Validate(verts, tris int) error {
	for k := range s.UVs {
		if err := s.UVs[k].validate(fmt.Sprintf("UV set %d", k), verts, tris); err != nil {
			return err
		}
	}
	if s.Normals != nil {
		if err := s.Normals.validate("normals", verts, tris); err != nil {
			return err
		}
	}
	for k := range s.Colors {
		if err := s.Colors[k].validate(fmt.Sprintf("colour set %d", k), verts, tris); err != nil {
			return err
		}
	}
	for k, p := range s.Parts {
		if p.Material < -1 || p.Material >= len(s.Materials) {
			return fmt.Errorf("part %d: material %d of %d", k+1, p.Material+1, len(s.Materials))
		}
	}
	if s.TriPart != nil {
		if len(s.TriPart) != tris {
			return fmt.Errorf("%d triangle parts for %d triangles", len(s.TriPart), tris)
		}
		for t, p := range s.TriPart {
			if p < 0 || int(p) >= len(s.Parts) {
				return fmt.Errorf("triangle %d: part %d of %d", t+1, p+1, len(s.Parts))
			}
		}
	} else if len(s.Parts) > 1 {
		return fmt.Errorf("%d parts but no part per triangle", len(s.Parts))
	}
	for k := range s.Materials {
		for _, t := range s.Materials[k].Textures() {
			if t.Image < 0 || t.Image >= len(s.Images) {
				return fmt.Errorf("material %q: image %d of %d", s.Materials[k].Name, t.Image+1, len(s.Images))
			}
			if t.UVSet < 0 || t.UVSet >= max(len(s.UVs), 1) {
				return fmt.Errorf("material %q: UV set %d of %d", s.Materials[k].Name, t.UVSet, len(s.UVs))
			}
		}
	}
	return nil
}

// Part returns triangle t's part, or -1 when there are no parts.
func (s *Surface) Part(t int) int {
	switch {
	case s.TriPart != nil:
		return int(s.TriPart[t])
	case len(s.Parts) == 1:
		return 0
	}
	return -1
}

// Clone returns a deep copy of s.
func (s *Surface) Clone() *Surface {
	c := &Surface{
		Materials: slices.Clone(s.Materials),
		Parts:     slices.Clone(s.Parts),
		TriPart:   slices.Clone(s.TriPart),
	}
	for k := range s.UVs {
		c.UVs = append(c.UVs, s.UVs[k].clone())
	}
	if s.Normals != nil {
		n := s.Normals.clone()
		c.Normals = &n
	}
	for k := range s.Colors {
		c.Colors = append(c.Colors, s.Colors[k].clone())
	}
	for k := range c.Materials {
		m := &c.Materials[k]
		for _, t := range []**TextureRef{&m.BaseColorTexture, &m.MetallicRoughnessTexture, &m.NormalTexture, &m.OcclusionTexture, &m.EmissiveTexture} {
			if *t != nil {
				cp := **t
				if cp.Transform != nil {
					x := *cp.Transform
					cp.Transform = &x
				}
				*t = &cp
			}
		}
	}
	for _, im := range s.Images {
		im.Data = slices.Clone(im.Data)
		c.Images = append(c.Images, im)
	}
	return c
}

// PolyCorners returns, for each triangle corner 3t+k, the index of the
// polygon corner it repeats, counting the corners of the polygons as read
// in order (PolyVerts order; an all-triangle mesh maps 3t+k to itself).
// Readers of formats that index values per polygon corner (OBJ vt/vn, FBX
// ByPolygonVertex layers, Alembic face-varying UVs) lay them on the
// triangles with it: Index[c] = polyIndex[corners[c]]. It needs the
// triangle fans New makes (polygon p0…pn-1 → (p0, pi, pi+1)) and reports
// an error naming the first triangle that is not one.
func (m *Mesh) PolyCorners() ([]int32, error) {
	out := make([]int32, 3*len(m.Tris))
	if m.PolyStart == nil {
		for c := range out {
			out[c] = int32(c)
		}
		return out, nil
	}
	t := 0
	for k := 0; k < m.NumPolys(); k++ {
		p, first := m.Poly(k), m.PolyStart[k]
		for i := 1; i+1 < len(p); i++ {
			if t >= len(m.Tris) || m.Tris[t] != [3]int{p[0], p[i], p[i+1]} {
				return nil, fmt.Errorf("triangle %d is not the fan of polygon %d", t+1, k+1)
			}
			out[3*t], out[3*t+1], out[3*t+2] = int32(first), int32(first+i), int32(first+i+1)
			t++
		}
	}
	if t != len(m.Tris) {
		return nil, fmt.Errorf("%d triangles, the polygons' fans make %d", len(m.Tris), t)
	}
	return out, nil
}
