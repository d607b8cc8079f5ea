package format

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/meshrig/meshrig/mesh"
)

// Open opens a file for reading, decompressing it when its name ends in
// ".gz". The caller closes the result. Anything but a regular file (a
// folder, a named pipe, a device) is refused with ErrNotRegular, without
// waiting on it.
func Open(name string) (io.ReadCloser, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	_, gz, _ := ByPath(name)
	if !gz {
		return f, nil
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a gzip file: %w", name, err)
	}
	return &gzipFile{zr, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

// Stat describes the compressed file, so that gzipFile is an fs.File.
func (g *gzipFile) Stat() (fs.FileInfo, error) { return g.f.Stat() }

func (g *gzipFile) Close() error {
	g.Reader.Close()
	return g.f.Close()
}

// ReadMesh reads one mesh file in any registered per-frame mesh format.
// Errors name the file.
func ReadMesh(name string) (*mesh.Mesh, error) {
	f, _, err := ByPath(name)
	if err != nil {
		return nil, err
	}
	if f.Mesh == nil {
		return nil, fmt.Errorf("%s: %w: %s files do not hold a single mesh", name, ErrUnsupported, f.Name)
	}
	rc, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	m, err := f.Mesh(bufio.NewReaderSize(rc, 1<<16))
	if err != nil {
		return nil, WithFile(err, name)
	}
	return m, nil
}

// ReadRestMesh reads a mesh file as ReadMesh does, and for a format that
// resolves side files (Format.MeshFS: OBJ's material libraries and
// textures) reads those too, from the file's folder and never outside it,
// so the mesh's Surface holds its materials. It returns the side files
// read as paths. A ".gz" file is read without its side files.
func ReadRestMesh(name string) (*mesh.Mesh, []string, error) {
	f, gz, err := ByPath(name)
	if err != nil {
		return nil, nil, err
	}
	if f.MeshFS == nil || gz {
		m, err := ReadMesh(name)
		return m, nil, err
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	fsys := rootFS{root}
	sf, err := fsys.open(base, name)
	if err != nil {
		return nil, nil, err
	}
	sf.Close()
	m, side, err := f.MeshFS(fsys, base)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) && pe.File != "" {
			pe.File = filepath.Join(dir, filepath.FromSlash(pe.File))
			return nil, nil, err
		}
		return nil, nil, WithFile(err, name)
	}
	for k, s := range side {
		side[k] = filepath.Join(dir, filepath.FromSlash(s))
	}
	return m, side, nil
}

// ReadScene reads an animated scene file (glTF, Collada) by path. Side files are
// resolved in the file's own folder and may not leave it; the scene file
// and its side files must be regular files (ErrNotRegular). Scene.Files
// lists the paths read: path and its side files, joined to path's folder.
// A ".gz" scene file is decompressed (its side files are not).
func ReadScene(path string, opt SceneOptions) (*Scene, error) {
	f, gz, err := ByPath(path)
	if err != nil {
		return nil, err
	}
	if f.Scene == nil {
		return nil, fmt.Errorf("%s: %w: %s files hold no scene", path, ErrUnsupported, f.Name)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// An os.Root keeps side files, symlinks included, inside the folder.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fsys := rootFS{root}
	// The reader's errors name the file by base; check it here so a pipe
	// or a missing file is named as given.
	sf, err := fsys.open(base, path)
	if err != nil {
		return nil, err
	}
	sf.Close()
	var scene fs.FS = fsys
	name := base
	if gz {
		name = base[:len(base)-len(".gz")]
		scene = gzScene{fsys, name, base}
	}
	sc, err := f.Scene(scene, name, opt)
	if err != nil {
		return nil, WithFile(err, path)
	}
	for k, n := range sc.Files {
		if n == name {
			sc.Files[k] = path // as given, so it reads as the user wrote it
			continue
		}
		sc.Files[k] = filepath.Join(dir, filepath.FromSlash(n))
	}
	return sc, nil
}

// gzScene serves the compressed scene file gz decompressed, as name; side
// files pass through.
type gzScene struct {
	rootFS
	name, gz string
}

func (g gzScene) Open(name string) (fs.File, error) {
	if name != g.name {
		return g.rootFS.Open(name)
	}
	f, err := g.rootFS.open(g.gz, g.gz)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("not a gzip file: %w", err)
	}
	return &gzipFile{zr, f}, nil
}

func (g gzScene) Stat(name string) (fs.FileInfo, error) {
	if name == g.name {
		name = g.gz
	}
	return g.rootFS.Stat(name)
}
