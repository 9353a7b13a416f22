from django.urls import path

from audit import views

urlpatterns = [
    path("switch-user/", views.switch_user, name="switch-user"),
    path("audit/", views.audit_log, name="audit-log"),
    path("audit/<int:pk>/", views.audit_event, name="audit-event"),
]
