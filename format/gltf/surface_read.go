package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"strings"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// looks is what a primitive shows besides its shape.
type looks struct {
	uvs      [][][2]float32 // TEXCOORD_0, TEXCOORD_1, … while they run on
	normals  [][3]float32   // NORMAL; nil when absent
	colors   [][][4]float32 // COLOR_0, …, RGB given alpha 1
	material int            // -1 for none
}

// readLooks reads a primitive's texture coordinates, normals, colours and
// material; n is its vertex count.
func readLooks(doc *gltflib.Document, p *gltflib.Primitive, n int) (looks, error) {
	lk := looks{material: -1}
	if p.Material != nil {
		if *p.Material < 0 || *p.Material >= len(doc.Materials) {
			return lk, fmt.Errorf("material %d does not exist", *p.Material)
		}
		lk.material = *p.Material
	}
	read := func(name string, comps ...int) ([]float64, int, bool, error) {
		ai, ok := p.Attributes[name]
		if !ok {
			return nil, 0, false, nil
		}
		v, nc, err := accessor(doc, ai)
		if err != nil {
			return nil, 0, false, fmt.Errorf("%s: %w", name, err)
		}
		for _, c := range comps {
			if nc == c && len(v) == c*n {
				return v, nc, true, nil
			}
		}
		return nil, 0, false, fmt.Errorf("%s holds %d values of %d components for %d vertices", name, len(v)/max(nc, 1), nc, n)
	}
	for k := 0; ; k++ {
		v, _, ok, err := read(fmt.Sprintf("TEXCOORD_%d", k), 2)
		if err != nil || !ok {
			if err != nil {
				return lk, err
			}
			break
		}
		uv := make([][2]float32, n)
		for i := range uv {
			uv[i] = [2]float32{float32(v[2*i]), float32(v[2*i+1])}
		}
		lk.uvs = append(lk.uvs, uv)
	}
	v, _, ok, err := read(gltflib.NORMAL, 3)
	if err != nil {
		return lk, err
	}
	if ok {
		lk.normals = make([][3]float32, n)
		for i := range lk.normals {
			lk.normals[i] = [3]float32{float32(v[3*i]), float32(v[3*i+1]), float32(v[3*i+2])}
		}
	}
	for k := 0; ; k++ {
		v, nc, ok, err := read(fmt.Sprintf("COLOR_%d", k), 3, 4)
		if err != nil || !ok {
			if err != nil {
				return lk, err
			}
			break
		}
		col := make([][4]float32, n)
		for i := range col {
			col[i][3] = 1
			for c := 0; c < nc; c++ {
				col[i][c] = float32(v[nc*i+c])
			}
		}
		lk.colors = append(lk.colors, col)
	}
	return lk, nil
}

// readSurface gathers the primitives' looks over the combined vertices,
// the file's materials and their images (external ones read through
// side, which keeps them in the file's folder), and a part per primitive.
// global holds the rest pose's node transforms: an unskinned primitive's
// normals turn with its node, as its vertices move. It returns nil when
// the file shows nothing beyond its shape.
func readSurface(doc *gltflib.Document, prims []prim, global []linalg.Affine, nverts, ntris int, side fs.FS) (*mesh.Surface, error) {
	s := &mesh.Surface{}
	nuv, ncol, normals := 0, 0, false
	for _, p := range prims {
		nuv, ncol = max(nuv, len(p.looks.uvs)), max(ncol, len(p.looks.colors))
		normals = normals || p.looks.normals != nil
	}
	for k := 0; k < nuv; k++ {
		a := mesh.Attr[[2]float32]{Name: fmt.Sprintf("TEXCOORD_%d", k), Values: make([][2]float32, nverts)}
		for _, p := range prims {
			if k < len(p.looks.uvs) && !p.alias {
				copy(a.Values[p.first:], p.looks.uvs[k])
			}
		}
		s.UVs = append(s.UVs, a)
	}
	for k := 0; k < ncol; k++ {
		a := mesh.Attr[[4]float32]{Name: fmt.Sprintf("COLOR_%d", k), Values: make([][4]float32, nverts)}
		for _, p := range prims {
			if p.alias {
				continue
			}
			if k < len(p.looks.colors) {
				copy(a.Values[p.first:], p.looks.colors[k])
			} else {
				for i := range p.pos {
					a.Values[p.first+i] = [4]float32{1, 1, 1, 1}
				}
			}
		}
		s.Colors = append(s.Colors, a)
	}
	if normals {
		a := &mesh.Attr[[3]float32]{Name: gltflib.NORMAL, Values: make([][3]float32, nverts)}
		for _, p := range prims {
			if p.alias {
				continue
			}
			nrm := p.looks.normals
			if nrm == nil { // the primitive's own smooth normals
				nrm = make([][3]float32, len(p.pos))
				for i, v := range mesh.VertexNormals(p.pos, p.tris) {
					nrm[i] = unit32(v)
				}
			}
			if p.skin < 0 && global[p.node].M != linalg.Identity3() {
				// Normals move with the inverse transpose of the node's matrix.
				inv, ok := global[p.node].M.Inverse()
				if !ok {
					inv = linalg.Identity3()
				}
				it := inv.T()
				turned := make([][3]float32, len(nrm))
				for i, v := range nrm {
					turned[i] = unit32(it.MulVec(linalg.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}))
				}
				nrm = turned
			}
			copy(a.Values[p.first:], nrm)
		}
		s.Normals = a
	}
	var err error
	if s.Images, err = readImages(doc, side); err != nil {
		return nil, err
	}
	for k, m := range doc.Materials {
		mt, err := readMaterial(doc, m, len(s.Images), nuv)
		if err != nil {
			return nil, fmt.Errorf("material %d: %w", k, err)
		}
		s.Materials = append(s.Materials, mt)
	}
	for _, p := range prims {
		nd := doc.Nodes[p.node]
		name := p.name // extras.name, as Write keeps a part's name
		if name == "" {
			name = nd.Name
		}
		if name == "" {
			name = doc.Meshes[*nd.Mesh].Name
		}
		s.Parts = append(s.Parts, mesh.Part{Name: name, Material: p.looks.material})
	}
	if len(s.Parts) > 1 {
		s.TriPart = make([]int32, 0, ntris)
		for k, p := range prims {
			for range p.tris {
				s.TriPart = append(s.TriPart, int32(k))
			}
		}
	}
	if nuv == 0 && ncol == 0 && !normals && len(s.Materials) == 0 && len(s.Parts) <= 1 {
		return nil, nil
	}
	return s, nil
}

// readMaterial converts a glTF material; nimages and nuv bound what its
// textures may refer to.
func readMaterial(doc *gltflib.Document, m *gltflib.Material, nimages, nuv int) (mesh.Material, error) {
	if m == nil {
		return mesh.NewMaterial(""), nil
	}
	mt := mesh.NewMaterial(m.Name)
	var err error
	tex := func(index, uv int, scale float64, ext gltflib.Extensions) *mesh.TextureRef {
		if err != nil {
			return nil
		}
		var t *mesh.TextureRef
		t, err = readTexture(doc, index, uv, scale, ext, nimages, nuv)
		return t
	}
	if pbr := m.PBRMetallicRoughness; pbr != nil {
		c := pbr.BaseColorFactorOrDefault()
		mt.BaseColor = [4]float32{float32(c[0]), float32(c[1]), float32(c[2]), float32(c[3])}
		mt.Metallic = float32(pbr.MetallicFactorOrDefault())
		mt.Roughness = float32(pbr.RoughnessFactorOrDefault())
		if t := pbr.BaseColorTexture; t != nil {
			mt.BaseColorTexture = tex(t.Index, t.TexCoord, 1, t.Extensions)
		}
		if t := pbr.MetallicRoughnessTexture; t != nil {
			mt.MetallicRoughnessTexture = tex(t.Index, t.TexCoord, 1, t.Extensions)
		}
	}
	if t := m.NormalTexture; t != nil && t.Index != nil {
		mt.NormalTexture = tex(*t.Index, t.TexCoord, t.ScaleOrDefault(), t.Extensions)
	}
	if t := m.OcclusionTexture; t != nil && t.Index != nil {
		mt.OcclusionTexture = tex(*t.Index, t.TexCoord, t.StrengthOrDefault(), t.Extensions)
	}
	if t := m.EmissiveTexture; t != nil {
		mt.EmissiveTexture = tex(t.Index, t.TexCoord, 1, t.Extensions)
	}
	e := m.EmissiveFactor
	mt.Emissive = [3]float32{float32(e[0]), float32(e[1]), float32(e[2])}
	switch m.AlphaMode {
	case gltflib.AlphaMask:
		mt.AlphaMode, mt.AlphaCutoff = "MASK", float32(m.AlphaCutoffOrDefault())
	case gltflib.AlphaBlend:
		mt.AlphaMode = "BLEND"
	default:
		mt.AlphaMode = "OPAQUE"
	}
	mt.DoubleSided = m.DoubleSided
	return mt, err
}

// readTexture resolves texture index to its image and sampler, with the
// KHR_texture_transform in ext; a texture without a core image source
// (one an extension supplies) gives nil.
func readTexture(doc *gltflib.Document, index, uv int, scale float64, ext gltflib.Extensions, nimages, nuv int) (*mesh.TextureRef, error) {
	if index < 0 || index >= len(doc.Textures) || doc.Textures[index] == nil {
		return nil, fmt.Errorf("texture %d does not exist", index)
	}
	xf, texCoord, err := readTransform(ext)
	if err != nil {
		return nil, fmt.Errorf("texture %d: %w", index, err)
	}
	if texCoord != nil {
		uv = *texCoord
	}
	tx := doc.Textures[index]
	if tx.Source == nil {
		return nil, nil
	}
	if *tx.Source < 0 || *tx.Source >= nimages {
		return nil, fmt.Errorf("texture %d: image %d does not exist", index, *tx.Source)
	}
	if uv < 0 || uv >= nuv {
		return nil, nil // no primitive has its TEXCOORD_n: nothing to map it with
	}
	t := &mesh.TextureRef{Image: *tx.Source, UVSet: uv, Scale: float32(scale), Transform: xf}
	if tx.Sampler != nil {
		si := *tx.Sampler
		if si < 0 || si >= len(doc.Samplers) || doc.Samplers[si] == nil {
			return nil, fmt.Errorf("texture %d: sampler %d does not exist", index, si)
		}
		t.Sampler = samplerCodes(doc.Samplers[si])
	}
	return t, nil
}

// textureTransform is glTF's KHR_texture_transform.
const textureTransform = "KHR_texture_transform"

// readTransform reads a texture reference's KHR_texture_transform: the
// transform (nil without one) and the UV set it names instead.
func readTransform(ext gltflib.Extensions) (*mesh.UVTransform, *int, error) {
	v, ok := ext[textureTransform]
	if !ok {
		return nil, nil, nil
	}
	raw, ok := v.(json.RawMessage)
	if !ok { // decoded by an extension another package registered
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", textureTransform, err)
		}
	}
	x := struct {
		Offset   [2]float64 `json:"offset"`
		Rotation float64    `json:"rotation"`
		Scale    [2]float64 `json:"scale"`
		TexCoord *int       `json:"texCoord"`
	}{Scale: [2]float64{1, 1}}
	if err := json.Unmarshal(raw, &x); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", textureTransform, err)
	}
	xf := &mesh.UVTransform{
		Offset:   [2]float32{float32(x.Offset[0]), float32(x.Offset[1])},
		Rotation: float32(x.Rotation),
		Scale:    [2]float32{float32(x.Scale[0]), float32(x.Scale[1])},
	}
	for _, f := range []float32{xf.Offset[0], xf.Offset[1], xf.Rotation, xf.Scale[0], xf.Scale[1]} {
		if math.IsInf(float64(f), 0) {
			return nil, nil, fmt.Errorf("%s: a value beyond float32", textureTransform)
		}
	}
	return xf, x.TexCoord, nil
}

// readImages returns the file's images with their bytes: from a buffer
// view, a data: uri, or a file beside the glTF file read through side (a
// missing one keeps its path without bytes; one outside the folder or not
// a regular file is refused).
func readImages(doc *gltflib.Document, side fs.FS) ([]mesh.Image, error) {
	var out []mesh.Image
	for k, im := range doc.Images {
		if im == nil {
			return nil, fmt.Errorf("image %d is null", k)
		}
		img := mesh.Image{Name: im.Name, MIMEType: im.MimeType}
		switch {
		case im.BufferView != nil:
			data, _, err := view(doc, *im.BufferView)
			if err != nil {
				return nil, fmt.Errorf("image %d: %w", k, err)
			}
			img.Data = bytes.Clone(data)
		case strings.HasPrefix(im.URI, "data:"):
			mime, data, ok := strings.Cut(strings.TrimPrefix(im.URI, "data:"), ";base64,")
			if !ok {
				return nil, fmt.Errorf("image %d: a data: uri without base64 content", k)
			}
			b, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				return nil, fmt.Errorf("image %d: data: uri: %w", k, err)
			}
			img.Data = b
			if img.MIMEType == "" {
				img.MIMEType = mime
			}
		case im.URI != "":
			name, err := url.PathUnescape(im.URI)
			if err != nil {
				return nil, fmt.Errorf("image %d: uri %q: %w", k, im.URI, err)
			}
			f, err := side.Open(name)
			if errors.Is(err, fs.ErrNotExist) {
				// A missing texture keeps its name: the mesh still rigs,
				// and a writer that references files can name it.
				img.Path = strings.TrimPrefix(name, "./")
				out = append(out, img)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("image %d: %w", k, err)
			}
			data, err := io.ReadAll(io.LimitReader(f, maxFile))
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("image %d: %s: %w", k, name, err)
			}
			img.Data, img.Path = data, strings.TrimPrefix(name, "./")
		default:
			return nil, fmt.Errorf("image %d has neither a uri nor a buffer view", k)
		}
		if img.MIMEType == "" {
			img.MIMEType = sniffImage(img.Data)
		}
		out = append(out, img)
	}
	return out, nil
}

// sniffImage names the MIME type of PNG and JPEG data, "" for others.
func sniffImage(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg"
	}
	return ""
}

// samplerCodes turns a glTF sampler into its numeric codes.
func samplerCodes(s *gltflib.Sampler) mesh.Sampler {
	mag := map[gltflib.MagFilter]int{gltflib.MagNearest: 9728, gltflib.MagLinear: 9729}
	min := map[gltflib.MinFilter]int{
		gltflib.MinNearest: 9728, gltflib.MinLinear: 9729,
		gltflib.MinNearestMipMapNearest: 9984, gltflib.MinLinearMipMapNearest: 9985,
		gltflib.MinNearestMipMapLinear: 9986, gltflib.MinLinearMipMapLinear: 9987,
	}
	wrap := map[gltflib.WrappingMode]int{gltflib.WrapRepeat: 10497, gltflib.WrapClampToEdge: 33071, gltflib.WrapMirroredRepeat: 33648}
	return mesh.Sampler{MagFilter: mag[s.MagFilter], MinFilter: min[s.MinFilter], WrapS: wrap[s.WrapS], WrapT: wrap[s.WrapT]}
}
