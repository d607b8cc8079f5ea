package collada

import (
	"encoding/base64"
	"errors"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// geomLooks gathers what a geometry shows besides its shape while its
// primitives are read: normals and texture coordinates per polygon corner
// (COLLADA indexes every input per corner), and the material symbol of
// each primitive element, which becomes a part.
type geomLooks struct {
	normal   cornerAttr
	uv       map[int]*cornerAttr // by TEXCOORD set
	corners  int                 // polygon corners read so far
	polyPart []int32
	symbols  []string // per part: its primitive's material symbol
}

// cornerAttr is one input's values (the sources it names, one after the
// other) and each polygon corner's index into them (-1: none).
type cornerAttr struct {
	values []float64
	width  int
	base   map[string]int // a source's first element in values
	idx    []int32
	// broken is set when a source cannot be read or an index leaves it:
	// the attribute is dropped, as the rig does not need it, rather than
	// the file refused.
	broken bool
}

// add reads the source of input in (once per source) and records the
// corner indices of one primitive: at(c) is corner c's index into the
// source, over corners corners.
func (a *cornerAttr) add(d *doc, lk *geomLooks, in *elem, width, corners int, at func(c int) int) error {
	if a.broken {
		return nil
	}
	if a.base == nil {
		a.base, a.width = map[string]int{}, width
	}
	url := in.get("source")
	v, n, err := d.floatSource(in, in.get("semantic")+" source", url, width)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return err // the document's budget, not this input
		}
		a.broken = true
		return nil
	}
	base, ok := a.base[url]
	if !ok {
		base = len(a.values) / width
		a.base[url] = base
		a.values = append(a.values, v[:n*width]...)
	}
	for len(a.idx) < lk.corners { // corners of earlier primitives without it
		a.idx = append(a.idx, -1)
	}
	for c := 0; c < corners; c++ {
		i := at(c)
		if i < 0 || i >= n {
			a.broken = true
			return nil
		}
		a.idx = append(a.idx, int32(base+i))
	}
	return nil
}

// primitiveLooks records the normals, texture coordinates and material of
// one primitive element p of npolys polygons: idx holds stride indices
// per corner, flat each corner's vertex (for inputs given per vertex in
// vs).
func (d *doc) primitiveLooks(lk *geomLooks, p, vs *elem, idx []int, stride int, flat []int, npolys int) error {
	corners := len(flat)
	inputs := func(list []*elem, perVertex bool) error {
		for k, in := range list {
			sem := in.get("semantic")
			if sem != "NORMAL" && sem != "TEXCOORD" {
				continue
			}
			at := func(c int) int { return flat[c] }
			if !perVertex {
				off, err := countAttr(in, "offset", -1)
				if err != nil {
					return err
				}
				at = func(c int) int { return idx[c*stride+off] }
			}
			if sem == "NORMAL" {
				if err := lk.normal.add(d, lk, in, 3, corners, at); err != nil {
					return err
				}
				continue
			}
			set, err := countAttr(in, "set", k)
			if err != nil {
				return err
			}
			if lk.uv == nil {
				lk.uv = map[int]*cornerAttr{}
			}
			if lk.uv[set] == nil {
				if len(lk.uv) >= 8 { // glTF's readers take a few; so do we
					continue
				}
				lk.uv[set] = &cornerAttr{}
			}
			if err := lk.uv[set].add(d, lk, in, 2, corners, at); err != nil {
				return err
			}
		}
		return nil
	}
	if err := inputs(vs.all("input"), true); err != nil {
		return err
	}
	if err := inputs(p.all("input"), false); err != nil {
		return err
	}
	part := int32(len(lk.symbols)) // a part per primitive element
	lk.symbols = append(lk.symbols, p.get("material"))
	for range npolys {
		lk.polyPart = append(lk.polyPart, part)
	}
	lk.corners += corners
	return nil
}

// surface lays what was gathered on the mesh's triangles: normals turned
// by the bind shape (inverse transpose), texture coordinates with T
// flipped to the mesh model's top-down v, a part per primitive element
// with its material (ml.bySym). nil when there is nothing.
func (lk *geomLooks) surface(m *mesh.Mesh, bind linalg.Affine, ml materialLib) (*mesh.Surface, error) {
	materials := ml.materials
	s := &mesh.Surface{Materials: materials, Images: ml.images}
	var corners []int32
	if (lk.normal.idx != nil && !lk.normal.broken) || len(lk.uv) > 0 {
		var err error
		if corners, err = m.PolyCorners(); err != nil {
			return nil, err
		}
	}
	lay := func(a *cornerAttr, n int) []int32 {
		for len(a.idx) < lk.corners {
			a.idx = append(a.idx, -1)
		}
		out := make([]int32, len(corners))
		for c, pc := range corners {
			if i := a.idx[pc]; i >= 0 {
				out[c] = i
			} else {
				out[c] = int32(n) // the value appended for corners without one
			}
		}
		return out
	}
	if a := &lk.normal; a.idx != nil && !a.broken {
		n := len(a.values) / 3
		vals := make([][3]float32, n, n+1)
		it := linalg.Identity3()
		if inv, ok := bind.M.Inverse(); ok {
			it = inv.T()
		}
		for i := range vals {
			v := it.MulVec(linalg.Vec3{a.values[3*i], a.values[3*i+1], a.values[3*i+2]})
			if l := v.Norm(); l > 0 && !math.IsInf(l, 0) {
				v = v.Scale(1 / l)
			}
			vals[i] = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
		}
		s.Normals = &mesh.Attr[[3]float32]{Values: append(vals, [3]float32{}), Index: lay(a, n)}
	}
	sets := make([]int, 0, len(lk.uv))
	for set, a := range lk.uv {
		if !a.broken {
			sets = append(sets, set)
		}
	}
	slices.Sort(sets)
	for k := range materials { // a texture's set number becomes its place
		if t := materials[k].BaseColorTexture; t != nil {
			if t.UVSet = slices.Index(sets, t.UVSet); t.UVSet < 0 {
				materials[k].BaseColorTexture = nil // no such set: nothing to map it with
			}
		}
	}
	for _, set := range sets {
		a := lk.uv[set]
		n := len(a.values) / 2
		vals := make([][2]float32, n, n+1)
		for i := range vals {
			vals[i] = [2]float32{float32(a.values[2*i]), float32(1 - a.values[2*i+1])}
		}
		s.UVs = append(s.UVs, mesh.Attr[[2]float32]{Values: append(vals, [2]float32{0, 1}), Index: lay(a, n)})
	}
	if len(lk.symbols) > 1 || len(materials) > 0 {
		for _, sym := range lk.symbols {
			mat, ok := ml.bySym[sym]
			if !ok {
				mat = -1
			}
			s.Parts = append(s.Parts, mesh.Part{Material: mat})
		}
	}
	if len(s.Parts) > 1 {
		s.TriPart = make([]int32, len(m.Tris))
		for t := range s.TriPart {
			poly := t
			if m.TriPoly != nil {
				poly = m.TriPoly[t]
			}
			s.TriPart[t] = lk.polyPart[poly]
		}
	}
	if s.Normals == nil && len(s.UVs) == 0 && len(s.Parts) <= 1 && len(materials) == 0 {
		return nil, nil
	}
	return s, s.Validate(len(m.Verts), len(m.Tris))
}

// materialLib is what the skin's instance binds: materials by symbol,
// and the images their textures use.
type materialLib struct {
	bySym     map[string]int
	materials []mesh.Material
	images    []mesh.Image
}

// materialsOf reads the materials the skin's instance binds: for each
// symbol, the material's name, its effect's diffuse colour, and a diffuse
// texture's image (bytes from a data: URI, else the path it names). What
// cannot be followed is left out, not refused: the rig does not need it.
func (d *doc) materialsOf(inst *elem) materialLib {
	var ml materialLib
	bm := inst.child("bind_material")
	if bm == nil || bm.child("technique_common") == nil {
		return ml
	}
	ml.bySym = map[string]int{}
	byTarget := map[*elem]int{}
	imageOf := map[*elem]int{}
	for _, im := range bm.child("technique_common").all("instance_material") {
		target, err := d.ref(im, "target", im.get("target"), "material")
		if err != nil {
			continue // an unbound symbol: its part goes without
		}
		k, ok := byTarget[target]
		if !ok {
			name := target.get("name")
			if name == "" {
				name = target.get("id")
			}
			mt := mesh.NewMaterial(name)
			mt.Metallic = 0
			d.effectOf(target, &mt, &ml.images, imageOf)
			k = len(ml.materials)
			byTarget[target] = k
			ml.materials = append(ml.materials, mt)
		}
		ml.bySym[im.get("symbol")] = k
	}
	return ml
}

// effectOf fills mt from the material's profile_COMMON effect: the
// diffuse colour, or the diffuse texture's image.
func (d *doc) effectOf(material *elem, mt *mesh.Material, images *[]mesh.Image, imageOf map[*elem]int) {
	ie := material.child("instance_effect")
	if ie == nil {
		return
	}
	eff, err := d.ref(ie, "url", ie.get("url"), "effect")
	if err != nil {
		return
	}
	prof := eff.child("profile_COMMON")
	if prof == nil {
		return
	}
	tech := prof.child("technique")
	if tech == nil {
		return
	}
	var diffuse *elem
	for _, shader := range tech.kids {
		if diffuse = shader.child("diffuse"); diffuse != nil {
			break
		}
	}
	if diffuse == nil {
		return
	}
	if c := diffuse.child("color"); c != nil {
		if v, err := d.numbersOf(c, -1); err == nil && len(v) >= 3 {
			for k := 0; k < min(4, len(v)); k++ {
				mt.BaseColor[k] = float32(max(0, min(1, v[k])))
			}
		}
	}
	tx := diffuse.child("texture")
	if tx == nil {
		return
	}
	img := d.textureImage(prof, tx.get("texture"))
	if img == nil {
		return
	}
	k, ok := imageOf[img]
	if !ok {
		k = len(*images)
		imageOf[img] = k
		*images = append(*images, imageData(img))
	}
	// The texcoord semantic names a set: UVSET<k>, as our writer and many
	// tools bind it; anything else is taken as set 0.
	set, err := strconv.Atoi(strings.TrimPrefix(tx.get("texcoord"), "UVSET"))
	if err != nil || set < 0 {
		set = 0
	}
	mt.BaseColorTexture = &mesh.TextureRef{Image: k, UVSet: set, Scale: 1}
	mt.BaseColor = [4]float32{1, 1, 1, 1}
}

// textureImage follows a texture's sampler: a sampler2D newparam whose
// source is a surface newparam (1.4.1) or that instances an image (1.5),
// or, as some tools write, the image's own id.
func (d *doc) textureImage(prof *elem, sid string) *elem {
	param := func(sid string) *elem {
		for _, np := range prof.all("newparam") {
			if np.get("sid") == sid {
				return np
			}
		}
		return nil
	}
	np := param(sid)
	if np == nil {
		img, _ := d.ref(prof, "texture", "#"+sid, "image")
		return img
	}
	s2 := np.child("sampler2D")
	if s2 == nil {
		return nil
	}
	if ii := s2.child("instance_image"); ii != nil {
		img, _ := d.ref(ii, "url", ii.get("url"), "image")
		return img
	}
	src := s2.child("source")
	if src == nil {
		return nil
	}
	surf := param(strings.TrimSpace(src.text))
	if surf == nil || surf.child("surface") == nil || surf.child("surface").child("init_from") == nil {
		return nil
	}
	img, _ := d.ref(surf, "init_from", "#"+strings.TrimSpace(surf.child("surface").child("init_from").text), "image")
	return img
}

// imageData reads an <image>: a data: URI's bytes, else the path its
// init_from names (1.4.1 text, 1.5 <ref>), relative and unescaped.
func imageData(img *elem) mesh.Image {
	im := mesh.Image{Name: img.get("name")}
	init := img.child("init_from")
	if init == nil {
		return im
	}
	uri := strings.TrimSpace(init.text)
	if ref := init.child("ref"); ref != nil {
		uri = strings.TrimSpace(ref.text)
	}
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		mime, data, ok := strings.Cut(rest, ";base64,")
		if b, err := base64.StdEncoding.DecodeString(data); ok && err == nil {
			im.MIMEType, im.Data = mime, b
		}
		return im
	}
	if p, err := url.PathUnescape(strings.TrimPrefix(uri, "file://")); err == nil {
		im.Path = p
	}
	return im
}
