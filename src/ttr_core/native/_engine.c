/* A stand-in for the compiled rules engine (issue 35): a valid extension
 * module, ttr_core.native._engine, with one int, ABI. The build
 * (hatch_build.py) compiles this one file; the engine replaces it. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_engine",
    .m_doc = "The compiled rules engine (a stand-in: ABI only).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__engine(void)
{
    PyObject *module = PyModule_Create(&engine_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "ABI", 1) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
