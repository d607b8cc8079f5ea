package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Files lists the files an item reads, sorted: each input file, each
// regular file of an input folder (not its subfolders: `meshrig rig`
// reads a folder's frames only), each match of an input glob, and the
// rest file. A missing input or a glob matching nothing is an error.
func (it Item) Files() ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	paths := append([]string(nil), it.Inputs...)
	if it.Rig.Rest != "" && !strings.HasPrefix(it.Rig.Rest, "frame:") {
		paths = append(paths, it.Rig.Rest)
	}
	for _, in := range paths {
		if strings.ContainsAny(in, "*?[") {
			m, err := filepath.Glob(in)
			if err != nil {
				return nil, fmt.Errorf("input %s: %w", in, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("input %s: matches no file", in)
			}
			for _, p := range m {
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					add(p)
				}
			}
			continue
		}
		st, err := os.Stat(in)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("input %s: no such file or folder", in)
		}
		if err != nil {
			return nil, fmt.Errorf("input %w", err)
		}
		if !st.IsDir() {
			add(in)
			continue
		}
		ents, err := os.ReadDir(in)
		if err != nil {
			return nil, fmt.Errorf("input %w", err)
		}
		n := len(files)
		for _, e := range ents {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				add(filepath.Join(in, e.Name()))
			}
		}
		if len(files) == n {
			return nil, fmt.Errorf("input %s: an empty folder", in)
		}
	}
	sort.Strings(files)
	return files, nil
}

// Digest is the SHA-256 of an item's input files' contents: for each
// file in order, its base name, its size and its content's SHA-256. It
// changes when any file read changes, is added or removed, and not when
// the library moves to another folder. Written "sha256:HEX".
func Digest(files []string) (string, error) {
	h := sha256.New()
	for _, p := range files {
		sum, n, err := fileSum(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%x\n", filepath.Base(p), n, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func fileSum(p string) ([]byte, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, fmt.Errorf("input %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, 0, fmt.Errorf("input %s: %w", p, err)
	}
	return h.Sum(nil), n, nil
}
