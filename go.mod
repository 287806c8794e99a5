module github.com/iggywire/iggywire

go 1.26
