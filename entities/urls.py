from django.urls import path

from entities import views

urlpatterns = [
    path("", views.entity_list, name="entity-list"),
    path("merge/", views.entity_merge_suggestions, name="entity-merge-suggestions"),
    path("merge/do/", views.entity_merge_view, name="entity-merge"),
    path("merge/dismiss/", views.entity_merge_dismiss_view, name="entity-merge-dismiss"),
    path("import/", views.contacts_import_view, name="contacts-import"),
    path("<entity_id:public_id>/", views.entity_detail, name="entity-detail"),
    path("<entity_id:public_id>/aliases/add/", views.entity_alias_add_view, name="entity-alias-add"),
    path("<entity_id:public_id>/aliases/remove/", views.entity_alias_remove_view, name="entity-alias-remove"),
    path("<entity_id:public_id>/relations/add/", views.entity_relation_add_view, name="entity-relation-add"),
    path("<entity_id:public_id>/relations/<int:relation_id>/remove/", views.entity_relation_remove_view,
         name="entity-relation-remove"),
]
