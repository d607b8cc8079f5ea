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
	// PaintAuto shows the mesh's own materials and vertex colours when its
	// surface has any, and otherwise colours a rig by joint (a mesh in
	// clay).
	PaintAuto Paint = iota
	// PaintJoints colours each vertex by its dominant joint.
	PaintJoints
	// PaintSurface shows the materials: base colour factor times the base
	// colour texture sampled at the UVs times the vertex colours (COLOR_0);
	// clay where a part has none of them, and all over a mesh without.
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

// look is how one triangle is painted from its surface, as glTF defines
// the base colour: the material's factor, times its texture at the
// corners' UVs, times the corners' vertex colours (COLOR_0) — each when
// present.
type look struct {
	tex    *texture
	uv     [3][2]float64
	base   [3]float64
	vcol   [3][3]float64
	hasCol bool
}

// paint returns each triangle's look from m's surface, or nil when the
// surface has neither a material any part uses nor vertex colours.
func paint(m *mesh.Mesh) []look {
	s := m.Surface
	if s == nil {
		return nil
	}
	decoded := make(map[int]*texture)
	used := len(s.Colors) > 0
	looks := make([]look, len(m.Tris))
	for t, tri := range m.Tris {
		lk := look{base: clay}
		if len(s.Colors) > 0 {
			lk.base, lk.hasCol = [3]float64{1, 1, 1}, true // glTF's default material is white
			for k, v := range tri {
				c := s.Colors[0].At(t, k, v)
				lk.vcol[k] = [3]float64{float64(c[0]), float64(c[1]), float64(c[2])}
			}
		}
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
					u, w := float64(uv[0]), float64(uv[1])
					if ref.Transform != nil {
						u, w = ref.Transform.Apply(u, w)
					}
					lk.uv[k] = [2]float64{u, w}
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
	c := lk.base
	if lk.tex != nil {
		u := w0*lk.uv[0][0] + w1*lk.uv[1][0] + w2*lk.uv[2][0]
		v := w0*lk.uv[0][1] + w1*lk.uv[1][1] + w2*lk.uv[2][1]
		x := lk.tex.at(u, v)
		c = [3]float64{c[0] * x[0], c[1] * x[1], c[2] * x[2]}
	}
	if lk.hasCol {
		for k := 0; k < 3; k++ {
			c[k] *= w0*lk.vcol[0][k] + w1*lk.vcol[1][k] + w2*lk.vcol[2][k]
		}
	}
	return c
}

// clay is the neutral colour of an unpainted surface.
var clay = [3]float64{0.78, 0.74, 0.68}
