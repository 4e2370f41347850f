"""rlvr.buffer"""
