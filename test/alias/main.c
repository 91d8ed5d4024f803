/* Built with -lMIOpen against an install that has the libMIOpen alias: the MIOpen C API from
 * libMIOpen.so is clfuse. Fills a tensor through miopenSetTensor on the default device, reads
 * it back, and checks that a declared-only call answers miopenStatusNotImplemented. */
#include <miopen/miopen.h>

#include <stdio.h>

int main(void)
{
    miopenHandle_t h = NULL;
    miopenTensorDescriptor_t t = NULL;
    cl_command_queue q = NULL;
    cl_context ctx = NULL;
    cl_mem buf = NULL;
    float host[2 * 3 * 4] = {0};
    const float value = 2.5f;
    int rc = 1;
    if (miopenCreate(&h) != miopenStatusSuccess || miopenGetStream(h, &q) != miopenStatusSuccess ||
        clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS) {
        fprintf(stderr, "alias: no handle\n");
        goto out;
    }
    cl_int err = CL_SUCCESS;
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    if (buf == NULL || miopenCreateTensorDescriptor(&t) != miopenStatusSuccess ||
        miopenSet4dTensorDescriptor(t, miopenFloat, 1, 2, 3, 4) != miopenStatusSuccess) {
        fprintf(stderr, "alias: setup failed\n");
        goto out;
    }
    miopenStatus_t st = miopenSetTensor(h, t, buf, &value);
    if (st != miopenStatusSuccess ||
        clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "alias: miopenSetTensor: %s\n", miopenGetErrorString(st));
        goto out;
    }
    for (size_t i = 0; i < sizeof host / sizeof host[0]; ++i)
        if (host[i] != value) {
            fprintf(stderr, "alias: element %zu is %g, not %g\n", i, (double)host[i],
                    (double)value);
            goto out;
        }
    miopenRNNDescriptor_t rnn = NULL;
    if (miopenCreateRNNDescriptor(&rnn) != miopenStatusNotImplemented) {
        fprintf(stderr, "alias: miopenCreateRNNDescriptor did not answer NotImplemented\n");
        goto out;
    }
    rc = 0;
out:
    if (buf)
        clReleaseMemObject(buf);
    miopenDestroyTensorDescriptor(t);
    miopenDestroy(h);
    return rc;
}
