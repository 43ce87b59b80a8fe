// A C header, included inside an extern "C" block (runtime-include-placement.cu).
int capi_version(void);
