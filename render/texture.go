package render

import (
	"bytes"
	"image"
	_ "image/jpeg" // base colour textures are PNG or JPEG
	_ "image/png"
	"math"

	"github.com/meshrig/meshrig/mesh"
)

// Paint chooses what colours a mesh.
type Paint int

const (
	// PaintAuto shows the mesh's own materials when its surface has any,
	// and otherwise colours a rig by joint (a mesh in clay).
	PaintAuto Paint = iota
	// PaintJoints colours each vertex by its dominant joint.
	PaintJoints
	// PaintSurface shows the materials: base colour factor times the base
	// colour texture sampled at the UVs; clay where a part has none, and
	// all over a mesh without materials.
	PaintSurface
)

// texture is a decoded image in [0,1] RGB, rows from the top.
type texture struct {
	w, h int
	pix  [][3]float64
}

// decodeTexture decodes PNG or JPEG data; nil when it cannot.
func decodeTexture(data []byte) *texture {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	b := img.Bounds()
	t := &texture{w: b.Dx(), h: b.Dy(), pix: make([][3]float64, b.Dx()*b.Dy())}
	if t.w == 0 || t.h == 0 {
		return nil
	}
	for y := 0; y < t.h; y++ {
		for x := 0; x < t.w; x++ {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			t.pix[y*t.w+x] = [3]float64{float64(r) / 0xffff, float64(g) / 0xffff, float64(bl) / 0xffff}
		}
	}
	return t
}

// at samples the texel nearest (u, v), repeating the image, v down from
// the top as glTF has it.
func (t *texture) at(u, v float64) [3]float64 {
	if math.IsNaN(u) || math.IsNaN(v) || math.IsInf(u, 0) || math.IsInf(v, 0) {
		return [3]float64{}
	}
	u, v = u-math.Floor(u), v-math.Floor(v)
	x, y := min(int(u*float64(t.w)), t.w-1), min(int(v*float64(t.h)), t.h-1)
	return t.pix[y*t.w+x]
}

// look is how one triangle is painted from its material: a base colour,
// times its texture at the corners' UVs when it has one.
type look struct {
	tex  *texture
	uv   [3][2]float64
	base [3]float64
}

// paint returns each triangle's look from m's surface, or nil when the
// surface has no material any part uses.
func paint(m *mesh.Mesh) []look {
	s := m.Surface
	if s == nil || len(s.Materials) == 0 || len(s.Parts) == 0 {
		return nil
	}
	decoded := make(map[int]*texture)
	used := false
	looks := make([]look, len(m.Tris))
	for t, tri := range m.Tris {
		lk := look{base: clay}
		p := s.Part(t)
		if p < 0 || s.Parts[p].Material < 0 {
			looks[t] = lk
			continue
		}
		used = true
		mt := &s.Materials[s.Parts[p].Material]
		lk.base = [3]float64{float64(mt.BaseColor[0]), float64(mt.BaseColor[1]), float64(mt.BaseColor[2])}
		if ref := mt.BaseColorTexture; ref != nil && ref.UVSet < len(s.UVs) {
			tex, ok := decoded[ref.Image]
			if !ok {
				tex = decodeTexture(s.Images[ref.Image].Data)
				decoded[ref.Image] = tex
			}
			if tex != nil {
				lk.tex = tex
				for k, v := range tri {
					uv := s.UVs[ref.UVSet].At(t, k, v)
					lk.uv[k] = [2]float64{float64(uv[0]), float64(uv[1])}
				}
			}
		}
		looks[t] = lk
	}
	if !used {
		return nil
	}
	return looks
}

// colour returns the look's colour at barycentric weights w0, w1, w2.
func (lk *look) colour(w0, w1, w2 float64) [3]float64 {
	if lk.tex == nil {
		return lk.base
	}
	u := w0*lk.uv[0][0] + w1*lk.uv[1][0] + w2*lk.uv[2][0]
	v := w0*lk.uv[0][1] + w1*lk.uv[1][1] + w2*lk.uv[2][1]
	c := lk.tex.at(u, v)
	return [3]float64{c[0] * lk.base[0], c[1] * lk.base[1], c[2] * lk.base[2]}
}

// clay is the neutral colour of an unpainted surface.
var clay = [3]float64{0.78, 0.74, 0.68}
