"""indexstore.py — reads a Clang/Swift index store through the toolchain's libIndexStore.

The index store is what `swift build` writes in a debug build (.build/<triple>/debug/index/store):
one unit per compiled source file, naming the record that holds every symbol occurrence of that
file (USR, roles, line and column, relations to the enclosing declarations). libIndexStore's C API
(indexstore.h) is called through ctypes; nothing here parses the store's binary format itself.
"""

import ctypes
import os
from dataclasses import dataclass, field

ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_CALL = 1 << 5
ROLE_IMPLICIT = 1 << 8
REL_CHILDOF = 1 << 9
REL_BASEOF = 1 << 10
REL_EXTENDEDBY = 1 << 14
REL_ACCESSOROF = 1 << 15
REL_CONTAINEDBY = 1 << 16

DEPENDENCY_UNIT = 1
DEPENDENCY_RECORD = 2


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        if not self.data or not self.length:
            return ""
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace")


_UNIT_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, _StringRef)
_POINTER_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


@dataclass
class Occurrence:
    usr: str
    name: str
    roles: int
    line: int
    column: int
    # (roles, usr) of each related symbol: the declaration that contains or is the parent of
    # this occurrence (REL_CONTAINEDBY, REL_CHILDOF, REL_ACCESSOROF, ...).
    relations: list = field(default_factory=list)


@dataclass
class Unit:
    name: str
    main_file: str
    module: str
    modified: float
    records: list


class IndexStoreError(Exception):
    pass


class IndexStore:
    def __init__(self, store_path, library):
        self._lib = ctypes.CDLL(library)
        lib = self._lib
        vp = ctypes.c_void_p
        lib.indexstore_store_create.restype = vp
        lib.indexstore_store_create.argtypes = [ctypes.c_char_p, ctypes.POINTER(vp)]
        lib.indexstore_store_dispose.argtypes = [vp]
        lib.indexstore_error_get_description.restype = ctypes.c_char_p
        lib.indexstore_error_get_description.argtypes = [vp]
        lib.indexstore_error_dispose.argtypes = [vp]
        lib.indexstore_store_units_apply_f.restype = ctypes.c_bool
        lib.indexstore_store_units_apply_f.argtypes = [vp, ctypes.c_uint, vp, _UNIT_APPLIER]
        lib.indexstore_unit_reader_create.restype = vp
        lib.indexstore_unit_reader_create.argtypes = [vp, ctypes.c_char_p, ctypes.POINTER(vp)]
        lib.indexstore_unit_reader_dispose.argtypes = [vp]
        for fn in ("main_file", "module_name"):
            f = getattr(lib, "indexstore_unit_reader_get_" + fn)
            f.restype = _StringRef
            f.argtypes = [vp]
        lib.indexstore_unit_reader_get_modification_time.argtypes = [
            vp, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]
        lib.indexstore_unit_reader_dependencies_apply_f.restype = ctypes.c_bool
        lib.indexstore_unit_reader_dependencies_apply_f.argtypes = [vp, vp, _POINTER_APPLIER]
        lib.indexstore_unit_dependency_get_kind.restype = ctypes.c_int
        lib.indexstore_unit_dependency_get_kind.argtypes = [vp]
        for fn in ("name", "filepath"):
            f = getattr(lib, "indexstore_unit_dependency_get_" + fn)
            f.restype = _StringRef
            f.argtypes = [vp]
        lib.indexstore_record_reader_create.restype = vp
        lib.indexstore_record_reader_create.argtypes = [vp, ctypes.c_char_p, ctypes.POINTER(vp)]
        lib.indexstore_record_reader_dispose.argtypes = [vp]
        lib.indexstore_record_reader_occurrences_apply_f.restype = ctypes.c_bool
        lib.indexstore_record_reader_occurrences_apply_f.argtypes = [vp, vp, _POINTER_APPLIER]
        lib.indexstore_occurrence_get_symbol.restype = vp
        lib.indexstore_occurrence_get_symbol.argtypes = [vp]
        lib.indexstore_occurrence_get_roles.restype = ctypes.c_uint64
        lib.indexstore_occurrence_get_roles.argtypes = [vp]
        lib.indexstore_occurrence_get_line_col.argtypes = [
            vp, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
        lib.indexstore_occurrence_relations_apply_f.restype = ctypes.c_bool
        lib.indexstore_occurrence_relations_apply_f.argtypes = [vp, vp, _POINTER_APPLIER]
        lib.indexstore_symbol_relation_get_roles.restype = ctypes.c_uint64
        lib.indexstore_symbol_relation_get_roles.argtypes = [vp]
        lib.indexstore_symbol_relation_get_symbol.restype = vp
        lib.indexstore_symbol_relation_get_symbol.argtypes = [vp]
        for fn in ("usr", "name"):
            f = getattr(lib, "indexstore_symbol_get_" + fn)
            f.restype = _StringRef
            f.argtypes = [vp]

        error = vp()
        self._store = lib.indexstore_store_create(os.fsencode(store_path), ctypes.byref(error))
        if not self._store:
            raise IndexStoreError(self._describe(error))

    def _describe(self, error):
        if not error:
            return "unknown error"
        text = self._lib.indexstore_error_get_description(error).decode("utf-8", "replace")
        self._lib.indexstore_error_dispose(error)
        return text

    def close(self):
        if self._store:
            self._lib.indexstore_store_dispose(self._store)
            self._store = None

    def units(self):
        """Every unit in the store: its main file, module, modification time and record names."""
        names = []

        def collect(_ctx, ref):
            names.append(ref.text())
            return True

        self._lib.indexstore_store_units_apply_f(self._store, 0, None, _UNIT_APPLIER(collect))
        units = []
        lib = self._lib
        for name in names:
            error = ctypes.c_void_p()
            reader = lib.indexstore_unit_reader_create(self._store, name.encode(), ctypes.byref(error))
            if not reader:
                raise IndexStoreError(f"unit {name}: {self._describe(error)}")
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(
                reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            records = []

            def dependency(_ctx, dep):
                if lib.indexstore_unit_dependency_get_kind(dep) == DEPENDENCY_RECORD:
                    records.append(lib.indexstore_unit_dependency_get_name(dep).text())
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, _POINTER_APPLIER(dependency))
            units.append(Unit(
                name=name,
                main_file=lib.indexstore_unit_reader_get_main_file(reader).text(),
                module=lib.indexstore_unit_reader_get_module_name(reader).text(),
                modified=seconds.value + nanoseconds.value / 1e9,
                records=records))
            lib.indexstore_unit_reader_dispose(reader)
        return units

    def occurrences(self, record_name):
        """Every occurrence in one record, with its symbol's USR and its relations."""
        lib = self._lib
        error = ctypes.c_void_p()
        reader = lib.indexstore_record_reader_create(self._store, record_name.encode(), ctypes.byref(error))
        if not reader:
            raise IndexStoreError(f"record {record_name}: {self._describe(error)}")
        found = []

        def occurrence(_ctx, occ):
            symbol = lib.indexstore_occurrence_get_symbol(occ)
            line, column = ctypes.c_uint(), ctypes.c_uint()
            lib.indexstore_occurrence_get_line_col(occ, ctypes.byref(line), ctypes.byref(column))
            relations = []

            def relation(_ctx2, rel):
                related = lib.indexstore_symbol_relation_get_symbol(rel)
                relations.append((lib.indexstore_symbol_relation_get_roles(rel),
                                  lib.indexstore_symbol_get_usr(related).text()))
                return True

            lib.indexstore_occurrence_relations_apply_f(occ, None, _POINTER_APPLIER(relation))
            found.append(Occurrence(
                usr=lib.indexstore_symbol_get_usr(symbol).text(),
                name=lib.indexstore_symbol_get_name(symbol).text(),
                roles=lib.indexstore_occurrence_get_roles(occ),
                line=line.value, column=column.value, relations=relations))
            return True

        lib.indexstore_record_reader_occurrences_apply_f(reader, None, _POINTER_APPLIER(occurrence))
        lib.indexstore_record_reader_dispose(reader)
        return found
