package fbx

import (
	"fmt"
	"path"
	"strings"

	"github.com/meshrig/meshrig/mesh"
)

// diffuseTexture returns the Texture connected to a material's diffuse
// colour, or nil.
func diffuseTexture(f *File, mo *Object) *Object {
	for _, c := range mo.Children {
		if c.Kind != "OP" || (c.Property != "DiffuseColor" && c.Property != "Diffuse") {
			continue
		}
		if t := f.Object(c.Child); t != nil && t.Class == "Texture" {
			return t
		}
	}
	return nil
}

// readImage reads a Texture's image: its embedded bytes (the Content of
// its Video) and its file, relative to the FBX's folder — RelativeFilename
// when it stays inside the folder, else the base name of FileName (a
// reference is only named, never opened, so nothing outside the folder is
// read through it).
func readImage(f *File, tex *Object) mesh.Image {
	im := mesh.Image{Name: tex.Name}
	rel, _ := stringChild(tex.Node, "RelativeFilename")
	abs, _ := stringChild(tex.Node, "FileName")
	for _, v := range f.childrenOf(tex, "Video") {
		if c := v.Node.Child("Content"); c != nil && len(c.Props) == 1 && c.Props[0].Type == 'R' && len(c.Props[0].Bytes) > 0 {
			im.Data = c.Props[0].Bytes
		}
		if rel == "" {
			rel, _ = stringChild(v.Node, "RelativeFilename")
		}
		for _, key := range []string{"Filename", "FileName"} {
			if abs == "" {
				abs, _ = stringChild(v.Node, key)
			}
		}
	}
	im.Path = localPath(rel)
	if im.Path == "" && abs != "" {
		im.Path = localPath(path.Base(strings.ReplaceAll(abs, "\\", "/")))
	}
	switch strings.ToLower(path.Ext(im.Path)) {
	case ".png":
		im.MIMEType = "image/png"
	case ".jpg", ".jpeg":
		im.MIMEType = "image/jpeg"
	}
	if im.Data != nil && im.MIMEType == "" {
		switch {
		case strings.HasPrefix(string(im.Data), "\x89PNG"):
			im.MIMEType = "image/png"
		case strings.HasPrefix(string(im.Data), "\xff\xd8"):
			im.MIMEType = "image/jpeg"
		}
	}
	return im
}

// localPath returns p with slashes when it names a file inside the
// folder (relative, no ".."), else "".
func localPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, ":") {
		return ""
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return ""
	}
	return c
}

// uvSetOf returns the index of the UV set a texture names, 0 when it
// names none or one the mesh lacks.
func uvSetOf(f *File, tex *Object, s *mesh.Surface) int {
	p := tex.props["UVSet"]
	if p == nil || len(p.Props) < 5 || p.Props[4].Type != 'S' {
		return 0
	}
	name := string(p.Props[4].Bytes)
	for k := range s.UVs {
		if s.UVs[k].Name == name {
			return k
		}
	}
	return 0
}

// textureObjects writes a Video and a Texture for a material's base colour
// image and connects them to the material's diffuse colour.
func (b *builder) textureObjects(s *mesh.Surface, ref *mesh.TextureRef, mat int64) {
	im := s.Images[ref.Image]
	file := im.Path
	if file == "" {
		ext := ".png"
		if im.MIMEType == "image/jpeg" {
			ext = ".jpg"
		}
		file = fmt.Sprintf("texture%d%s", ref.Image, ext)
	}
	name := im.Name
	if name == "" {
		name = path.Base(file)
	}
	uv := "map1"
	if ref.UVSet < len(s.UVs) && s.UVs[ref.UVSet].Name != "" {
		uv = s.UVs[ref.UVSet].Name
	}
	video := []*Node{one("Type", pS("Clip")),
		node("Properties70", nil, prop70("Path", "KString", "XRefUrl", "", pS(file))),
		one("UseMipMap", pI(0)), one("Filename", pS(file)), one("RelativeFilename", pS(file))}
	if im.Data != nil {
		video = append(video, one("Content", Property{Type: 'R', Bytes: im.Data}))
	}
	vid := b.object("Video", name, "Clip", video...)
	tex := b.object("Texture", name, "",
		one("Type", pS("TextureVideoClip")), one("Version", pI(202)), one("TextureName", pS(name+"\x00\x01Texture")),
		node("Properties70", nil, prop70("UVSet", "KString", "", "", pS(uv)), prop70("UseMaterial", "bool", "", "", pI(1))),
		one("Media", pS(name+"\x00\x01Video")), one("FileName", pS(file)), one("RelativeFilename", pS(file)),
		node("ModelUVTranslation", []Property{pD(0), pD(0)}), node("ModelUVScaling", []Property{pD(1), pD(1)}),
		one("Texture_Alpha_Source", pS("None")), node("Cropping", []Property{pI(0), pI(0), pI(0), pI(0)}))
	b.oo(vid, tex)
	b.op(tex, mat, "DiffuseColor")
}
