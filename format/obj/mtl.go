package obj

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
)

// maxImage bounds a texture file read into memory.
const maxImage = 256 << 20

// ReadFS reads the OBJ file name from fsys with its materials: the
// material libraries it names (mtllib) are read from fsys relative to the
// file's folder, and each material used takes its diffuse colour (Kd),
// dissolve (d, or 1−Tr), emissive colour (Ke) and textures (map_Kd as the
// base colour, map_Bump/bump/norm as the normal map, map_Ke) with their
// image bytes. A library or image that is missing, leaves the folder or
// is not a regular file is skipped: the material keeps its name, the
// image its path without bytes. It returns the side files read, as names
// in fsys. Errors in the OBJ file are left for the caller to name
// (format.WithFile); errors in a library are *format.ParseError naming it.
func ReadFS(fsys fs.FS, name string) (*mesh.Mesh, []string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	m, libs, err := read(bufio.NewReaderSize(f, 1<<16))
	f.Close()
	if err != nil {
		return nil, nil, err
	}
	s := m.Surface
	if s == nil || len(s.Materials) == 0 {
		return m, nil, nil
	}
	dir := path.Dir(name)
	var read []string
	defs := map[string]mtl{}
	for _, lib := range libs {
		p, ok := inside(dir, lib)
		if !ok {
			continue
		}
		f, err := fsys.Open(p)
		if err != nil {
			continue
		}
		ms, err := readMTL(f, path.Dir(p))
		f.Close()
		if err != nil {
			return nil, nil, format.WithFile(err, p)
		}
		read = append(read, p)
		for _, d := range ms {
			if _, seen := defs[d.name]; !seen { // the first library wins
				defs[d.name] = d
			}
		}
	}
	images := map[string]int{}
	image := func(p string) *mesh.TextureRef {
		if p == "" {
			return nil
		}
		k, ok := images[p]
		if !ok {
			k = len(s.Images)
			images[p] = k
			im := mesh.Image{Name: path.Base(p), Path: p}
			if data, err := readImage(fsys, p); err == nil {
				im.Data, im.MIMEType = data, sniff(data)
				read = append(read, p)
			}
			s.Images = append(s.Images, im)
		}
		return &mesh.TextureRef{Image: k, Scale: 1}
	}
	for k := range s.Materials {
		mt := &s.Materials[k]
		d, ok := defs[mt.Name]
		if !ok {
			continue
		}
		// glTF's factors lie in [0,1]; OBJ's may stray.
		mt.BaseColor = [4]float32{unit(d.kd[0]), unit(d.kd[1]), unit(d.kd[2]), unit(d.alpha)}
		mt.Emissive = [3]float32{unit(d.ke[0]), unit(d.ke[1]), unit(d.ke[2])}
		if mt.BaseColor[3] < 1 {
			mt.AlphaMode = "BLEND"
		}
		mt.BaseColorTexture = image(d.mapKd)
		mt.NormalTexture = image(d.bump)
		mt.EmissiveTexture = image(d.mapKe)
	}
	return m, read, nil
}

// unit clamps x to [0,1].
func unit(x float32) float32 { return max(0, min(1, x)) }

// inside joins a name from a file to its folder dir, refusing one that
// is absolute or leaves the folder.
func inside(dir, name string) (string, bool) {
	name = strings.ReplaceAll(name, `\`, "/")
	if path.IsAbs(name) || strings.Contains(name, ":") {
		return "", false
	}
	p := path.Clean(path.Join(dir, name))
	return p, fs.ValidPath(p)
}

// readImage reads a texture file, refusing anything but a regular file
// of at most maxImage bytes.
func readImage(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxImage {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", name, maxImage)
	}
	return io.ReadAll(io.LimitReader(f, maxImage))
}

// sniff names PNG and JPEG data's MIME type, "" for others.
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg"
	}
	return ""
}

// mtl is one material of a library; texture paths are joined to the
// library's folder ("" when absent or outside the folder).
type mtl struct {
	name               string
	kd, ke             [3]float32
	alpha              float32
	mapKd, bump, mapKe string
}

// readMTL parses a material library whose folder is dir.
func readMTL(r io.Reader, dir string) ([]mtl, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var out []mtl
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if i := bytes.IndexByte(b, '#'); i >= 0 {
			b = b[:i]
		}
		fields := splitFields(b)
		if len(fields) == 0 {
			continue
		}
		key := string(fields[0].s)
		if key == "newmtl" {
			out = append(out, mtl{name: restOf(b, fields), kd: [3]float32{1, 1, 1}, alpha: 1})
			continue
		}
		if len(out) == 0 {
			continue // statements before any newmtl have nothing to set
		}
		m := &out[len(out)-1]
		nums := func(n int) ([3]float32, error) {
			var v [3]float32
			if len(fields) < 1+n {
				return v, perr(line, 1, fmt.Errorf("%s has %d values, need %d", key, len(fields)-1, n))
			}
			for k := 0; k < n; k++ {
				x, err := strconv.ParseFloat(string(fields[k+1].s), 32)
				if err != nil || !finite(x) {
					return v, perr(line, fields[k+1].col, fmt.Errorf("bad value %q", fields[k+1].s))
				}
				v[k] = float32(x)
			}
			return v, nil
		}
		// A map statement's file name is its last field; options come first.
		file := func() string {
			if len(fields) < 2 {
				return ""
			}
			if p, ok := inside(dir, string(fields[len(fields)-1].s)); ok {
				return p
			}
			return "" // outside the input's folder: not read
		}
		var err error
		switch key {
		case "Kd":
			if len(fields) > 1 && (string(fields[1].s) == "spectral" || string(fields[1].s) == "xyz") {
				continue // not RGB
			}
			m.kd, err = nums(3)
		case "Ke":
			m.ke, err = nums(3)
		case "d", "Tr": // "d -halo 0.5": the factor comes last
			fields = append(fields[:1], fields[len(fields)-1])
			var v [3]float32
			v, err = nums(1)
			m.alpha = v[0]
			if key == "Tr" {
				m.alpha = 1 - v[0]
			}
		case "map_Kd":
			m.mapKd = file()
		case "map_Bump", "map_bump", "bump", "norm":
			m.bump = file()
		case "map_Ke":
			m.mapKe = file()
		}
		if err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, perr(line+1, 0, err)
	}
	return out, nil
}
